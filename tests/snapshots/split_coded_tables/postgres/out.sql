-- split_coded_tables: the coded tables of several hierarchies coded in Python, as views of the staging table
-- they were inserted into together (create_coded_table.sql.j2 with parts; EngineAdapter.create_coded_tables),
-- as one call of several statements (no bind parameters). On DuckDB 2.0 ADULT's eight views take 2.2 ms where
-- copies took 6-7 ms, and reading them costs the frequency set's build ~2 ms more. The staging table is dropped
-- with the run's tables, after its views (drop_tables.sql.j2).
-- context: staging, tables [{table, height}] (in part order)
CREATE TEMPORARY VIEW "sqlanon_0a1b2c3d_c0" AS
SELECT value, match_key, "l0", "g0", "w0", "l1", "g1", "w1"
FROM "sqlanon_0a1b2c3d_cs" WHERE part = 0;
CREATE TEMPORARY VIEW "we""ird; col" AS
SELECT value, match_key, "l0", "g0", "w0"
FROM "sqlanon_0a1b2c3d_cs" WHERE part = 1
-- bind parameters: []

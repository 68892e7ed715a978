-- split_coded_tables: the coded tables of several hierarchies coded in Python, from the staging table they were
-- inserted into together (create_coded_table.sql.j2 with parts; EngineAdapter.create_coded_tables), as one
-- call of several statements (no bind parameters); the staging table is dropped.
-- context: staging, tables [{table, height}] (in part order)
CACHE TABLE `sqlanon_0a1b2c3d_c0` AS
SELECT value, match_key, `l0`, `g0`, `w0`, `l1`, `g1`, `w1`
FROM `sqlanon_0a1b2c3d_cs` WHERE part = 0;
CACHE TABLE `we"ird; col` AS
SELECT value, match_key, `l0`, `g0`, `w0`
FROM `sqlanon_0a1b2c3d_cs` WHERE part = 1;
DROP TABLE `sqlanon_0a1b2c3d_cs`
-- bind parameters: []

-- drop_tables: remove tables and views where they exist, as one call of several statements (both engines take
-- them without bind parameters): a drop each cost ADULT ~0.3 ms nine times on DuckDB. DuckDB drops a table or
-- a view only by a statement of its kind, and the views go first, before the tables they read.
-- context: tables (unqualified names), views (unqualified names, optional)
DROP VIEW IF EXISTS "sqlanon_0a1b2c3d_c0";
DROP VIEW IF EXISTS "we""ird; col";
DROP TABLE IF EXISTS "sqlanon_0a1b2c3d_cs"
-- bind parameters: []

-- create_csv_staging: the temporary table a plain hierarchy file's fields are copied into where the database
-- cannot read the file itself (EngineAdapter.stage_csv; load_csv_hierarchy.sql.j2 reads it).
-- context: table, columns
CACHE TABLE `we"ird; col` (`c0` STRING, `c1` STRING, `c2` STRING)
-- bind parameters: []

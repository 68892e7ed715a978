-- create_csv_staging: the temporary table a plain hierarchy file's fields are copied into where the database
-- cannot read the file itself (EngineAdapter.stage_csv; load_csv_hierarchy.sql.j2 reads it).
-- context: table, columns
CREATE TEMPORARY TABLE "we""ird; col" ("c0" TEXT, "c1" TEXT, "c2" TEXT)
-- bind parameters: []

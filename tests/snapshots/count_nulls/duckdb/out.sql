-- count_nulls: per column, the source's records with a NULL there (the report's hierarchy examples show
-- "NULL -> label" only for a column that holds NULLs), every column in one pass.
-- context: source, columns (column names)
-- columns: one count per column, in order
SELECT count(*) FILTER (WHERE "age" IS NULL), count(*) FILTER (WHERE "we""ird; col" IS NULL)
FROM "analytics"."we""ird; col"
-- bind parameters: []

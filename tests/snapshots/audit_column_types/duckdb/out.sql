-- audit_column_types: declared type of each given column of a table (sqlanon check decides which
-- measures need a numeric column). pg_typeof exists on both engines; the LEFT JOIN yields one row even
-- for an empty table, and the type of a NULL taken from a column is still the column's type.
-- context: table (parts), columns
-- columns: one type name per column, in order
SELECT CAST(pg_typeof(s."diagnosis") AS VARCHAR), CAST(pg_typeof(s."we""ird; col") AS VARCHAR), CAST(pg_typeof(s."pct%col") AS VARCHAR)
FROM (SELECT 1 AS one) AS d
LEFT JOIN (SELECT "diagnosis", "we""ird; col", "pct%col" FROM "analytics"."we""ird; col" LIMIT 1) AS s ON TRUE
-- bind parameters: []

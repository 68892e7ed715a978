-- find_dependants: what would stop a DROP TABLE of an existing table: tables whose foreign keys reference it.
-- (DuckDB binds views by name when they are read, so a replaced table's views read the new one.)
-- context: table (exact parts catalog, schema, name)
-- columns: dependant (display text), kind
SELECT database_name || '.' || schema_name || '.' || table_name, 'foreign key'
FROM duckdb_constraints()
WHERE constraint_type = 'FOREIGN KEY'
  AND database_name = ? AND schema_name = ?
  AND lower(referenced_table) = lower(?)
  AND lower(table_name) <> lower(?)
ORDER BY 1
-- bind parameters: ['warehouse', 'analytics', 'we"ird; col', 'we"ird; col']

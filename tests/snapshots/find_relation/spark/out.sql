-- find_relation: what the catalog holds that a table name of up to three parts may denote, for
-- EngineAdapter.resolve_relation to pick the relation the engine would read (or where it would create it).
-- DuckDB compares names without case, quoted or not, so the last part is matched with lower().
-- context: name (the last part of the name)
-- columns: kind ('table' | 'view' | 'schema' | 'catalog' | 'current'), catalog, schema, name, flag
--          (temporary for tables and views, read-only for catalogs)
SELECT 'table', database_name, schema_name, table_name, temporary
FROM duckdb_tables() WHERE lower(table_name) = lower(?)
UNION ALL
SELECT 'view', database_name, schema_name, view_name, temporary
FROM duckdb_views() WHERE NOT internal AND lower(view_name) = lower(?)
UNION ALL
SELECT 'schema', database_name, schema_name, NULL, FALSE FROM duckdb_schemas()
UNION ALL
SELECT 'catalog', database_name, NULL, NULL, readonly FROM duckdb_databases()
UNION ALL
SELECT 'current', current_database(), current_schema(), NULL, FALSE
-- bind parameters: ['we"ird; col', 'we"ird; col']

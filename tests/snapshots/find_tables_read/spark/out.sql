-- find_tables_read: the unoptimized logical plan of reading a relation whole, as JSON, so that
-- EngineAdapter.tables_read finds every table a view reads (its scans name them fully qualified; the
-- optimizer would drop the scans of branches it proves empty). Needs explain_output = 'all'.
-- context: table (exact parts; regclass is for the PostgreSQL override)
-- columns: explain_key, explain_value (JSON)
EXPLAIN (FORMAT json) SELECT * FROM `warehouse`.`analytics`.`we"ird; col`
-- bind parameters: []

-- history_version: the applied migrations of the history schema (none when its version table is absent).
-- context: schema
SELECT count(*) FROM information_schema.tables
WHERE table_schema = ? AND table_name = 'run_history_version'
-- bind parameters: ['we"ird; col']

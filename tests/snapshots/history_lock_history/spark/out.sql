-- lock_history: serialize migrations of the history schema. DuckDB has no advisory locks: one process per
-- file, and sqlanon/history/schema.py serializes the threads of that process itself (PostgreSQL overrides this).
-- context: schema
SELECT 1
-- bind parameters: []

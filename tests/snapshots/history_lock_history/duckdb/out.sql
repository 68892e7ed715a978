-- lock_history: serialize migrations of the history schema. DuckDB allows one writing process per file and
-- serializes transactions within it, so nothing to do here (PostgreSQL overrides this template).
-- context: schema
SELECT 1
-- bind parameters: []

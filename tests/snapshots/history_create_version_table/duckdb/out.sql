-- create_version_table: the migration bookkeeping table (before migration 0001, in the same transaction).
-- context: schema
CREATE TABLE IF NOT EXISTS "we""ird; col"."run_history_version" (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TIMESTAMP NOT NULL,
  sqlanon_version TEXT NOT NULL
)
-- bind parameters: []

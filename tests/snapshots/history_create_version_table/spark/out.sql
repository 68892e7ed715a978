-- create_version_table: the migration bookkeeping table (before migration 0001, in the same transaction).
-- context: schema
CREATE TABLE IF NOT EXISTS `we"ird; col`.`run_history_version` (
  version INTEGER,
  name STRING NOT NULL,
  applied_at TIMESTAMP NOT NULL,
  sqlanon_version STRING NOT NULL
)
-- bind parameters: []

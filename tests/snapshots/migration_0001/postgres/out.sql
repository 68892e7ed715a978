-- 0001: the run history. One row per run of sqlanon anonymize (and later apply).
-- Times are UTC. JSON documents are stored as TEXT: both engines read them and no JSON extension is needed.
-- context: schema
CREATE SCHEMA IF NOT EXISTS "we""ird; col";
CREATE TABLE "we""ird; col"."runs" (
  run_id TEXT PRIMARY KEY,
  command TEXT NOT NULL,
  status TEXT NOT NULL,
  started_at TIMESTAMP NOT NULL,
  finished_at TIMESTAMP,
  error TEXT,
  sqlanon_version TEXT NOT NULL,
  config_file TEXT,
  config_json TEXT NOT NULL,
  config_hash TEXT NOT NULL,
  source_table TEXT,
  output_table TEXT,
  rows_total BIGINT,
  rows_considered BIGINT,
  output_rows BIGINT,
  suppressed_rows BIGINT,
  transformation_json TEXT,
  metric TEXT,
  metrics_json TEXT,
  nodes_evaluated BIGINT,
  lattice_size BIGINT,
  verified BOOLEAN,
  verification_json TEXT
);
-- bind parameters: []

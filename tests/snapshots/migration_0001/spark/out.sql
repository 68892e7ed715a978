-- 0001: the run history. One row per run of sqlanon anonymize (and later apply).
-- Times are UTC. JSON documents are stored as TEXT: both engines read them and no JSON extension is needed.
-- context: schema
CREATE SCHEMA IF NOT EXISTS `we"ird; col`;
CREATE TABLE `we"ird; col`.`runs` (
  run_id STRING,
  command STRING NOT NULL,
  status STRING NOT NULL,
  started_at TIMESTAMP NOT NULL,
  finished_at TIMESTAMP,
  error STRING,
  sqlanon_version STRING NOT NULL,
  config_file STRING,
  config_json STRING NOT NULL,
  config_hash STRING NOT NULL,
  source_table STRING,
  output_table STRING,
  rows_total BIGINT,
  rows_considered BIGINT,
  output_rows BIGINT,
  suppressed_rows BIGINT,
  transformation_json STRING,
  metric STRING,
  metrics_json STRING,
  nodes_evaluated BIGINT,
  lattice_size BIGINT,
  verified BOOLEAN,
  verification_json STRING
);
-- bind parameters: []

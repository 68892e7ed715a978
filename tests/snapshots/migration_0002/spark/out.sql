-- 0002: which process ran (so runs list can tell a killed run from a running one), the full report,
-- and optionally the per-node results of the lattice search.
-- context: schema
ALTER TABLE `we"ird; col`.`runs` ADD COLUMN host STRING;
ALTER TABLE `we"ird; col`.`runs` ADD COLUMN pid BIGINT;
ALTER TABLE `we"ird; col`.`runs` ADD COLUMN report_json STRING;
CREATE TABLE `we"ird; col`.`run_nodes` (
  run_id STRING NOT NULL,
  levels STRING NOT NULL,
  state STRING NOT NULL,
  metric DOUBLE
);
-- bind parameters: []

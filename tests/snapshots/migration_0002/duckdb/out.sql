-- 0002: which process ran (so runs list can tell a killed run from a running one), the full report,
-- and optionally the per-node results of the lattice search.
-- context: schema
ALTER TABLE "we""ird; col"."runs" ADD COLUMN host TEXT;
ALTER TABLE "we""ird; col"."runs" ADD COLUMN pid BIGINT;
ALTER TABLE "we""ird; col"."runs" ADD COLUMN report_json TEXT;
CREATE TABLE "we""ird; col"."run_nodes" (
  run_id TEXT NOT NULL,
  levels TEXT NOT NULL,
  state TEXT NOT NULL,
  metric DOUBLE PRECISION,
  PRIMARY KEY (run_id, levels)
);
-- bind parameters: []

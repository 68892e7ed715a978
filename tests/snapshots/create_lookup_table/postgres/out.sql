-- create_lookup_table: raw generalization hierarchy as written (one row per hierarchy row).
-- context: table, height
-- columns: value (leaf text, NULL for an explicit NULL mapping), l0 .. l{height-1} (label per level)
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_h0" (
  value VARCHAR,
  "l0" VARCHAR,
  "l1" VARCHAR,
  "l2" VARCHAR
)
-- bind parameters: []

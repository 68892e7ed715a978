-- build_code_weights: the Loss weight (c - 1) of each code of each level of each QI, as its coded hierarchy gives it
-- (encode_hierarchy.sql.j2), for the Loss weights query that looks them up per suppressed class instead of
-- summing a weight column per row (evaluate_node_code_weights.sql.j2). Within a class every record has the
-- same code, hence the same weight, at each grouped level, so a class's weight is its size times that weight.
-- A code has one weight except where an unmapped NULL shares the top label with a single value (it costs 1,
-- the value 0): w and w_max then differ and the caller keeps the per-row sums (describe_code_weights.sql.j2).
-- context: table (new temp table), qis [{coded, height}]
-- columns: qi, lvl, code, w (smallest weight of the code), w_max (largest)
CACHE TABLE `sqlanon_0a1b2c3d_cw` AS
SELECT qi, lvl, code, min(w) AS w, max(w) AS w_max
FROM (
  SELECT 0 AS qi, 0 AS lvl, `g0` AS code, `w0` AS w FROM `sqlanon_0a1b2c3d_c0`
  UNION ALL
  SELECT 0 AS qi, 1 AS lvl, `g1` AS code, `w1` AS w FROM `sqlanon_0a1b2c3d_c0`
  UNION ALL
  SELECT 0 AS qi, 2 AS lvl, `g2` AS code, `w2` AS w FROM `sqlanon_0a1b2c3d_c0`
  UNION ALL
  SELECT 1 AS qi, 0 AS lvl, `g0` AS code, `w0` AS w FROM `we"ird; col`
  UNION ALL
  SELECT 1 AS qi, 1 AS lvl, `g1` AS code, `w1` AS w FROM `we"ird; col`
) AS levels
GROUP BY qi, lvl, code
-- bind parameters: []

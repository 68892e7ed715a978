-- summarize_frequency_set: node-independent sums for the metrics' lower bounds.
-- context: table, heights
-- columns: n, distinct rows, then per QI i and level j: sum(cnt * w{i}_{j}), count(DISTINCT q{i}_{j})
SELECT sum(cnt), count(*)
  , sum(cnt * w0_0), count(DISTINCT q0_0)
  , sum(cnt * w0_1), count(DISTINCT q0_1)
  , sum(cnt * w0_2), count(DISTINCT q0_2)
  , sum(cnt * w1_0), count(DISTINCT q1_0)
  , sum(cnt * w1_1), count(DISTINCT q1_1)
  , sum(cnt * w2_0), count(DISTINCT q2_0)
FROM "sqlanon_0a1b2c3d_fs"
-- bind parameters: []

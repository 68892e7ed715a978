-- summarize_frequency_set: node-independent sums for the metrics' lower bounds.
-- context: table, heights, fixed (optional: per QI and level, the Loss weight of every row where the frequency
--          set stores no column for it, build_frequency_set.sql.j2: its sum is that times the records),
--          distinct (count the distinct codes of every level: only DM*'s bound reads them),
--          hashed_distinct (optional: count(DISTINCT) hashes, so each level's codes are counted directly),
--          k (optional: also count the records of rows below k, which the bottom node suppresses, the most any
--          node does: whether sliced checks pay, slicing.py)
-- columns: n, distinct rows, then per QI i and level j: sum(w{i}_{j}), count(DISTINCT q{i}_{j}) (NULL unless
-- distinct), max(q{i}_{j}), min(q{i}_{j}); then, with k, the records of rows below k
-- (codes are positive: the largest bounds the digits of a packed class key, see
-- evaluate_node_k_anonymity.sql.j2; a level whose smallest and largest codes agree has a single code, and node
-- queries leave it out of their grouping)
-- Where count(DISTINCT) sorts its input (PostgreSQL), the distinct codes of QI i are counted over its distinct
-- code combinations (a code at level j is a function of the code at level 0), which are few and found in one
-- pass for all QIs, instead of sorting the whole frequency set once per level. DuckDB hashes them.
-- Without them the summary is one pass of sums, and one SELECT (binding the columns of a CTE again has a cost).
WITH totals AS (
  SELECT sum(cnt) AS n, count(*) AS r
       , sum(cnt) * 0 AS w0_0, max(q0_0) AS m0_0, min(q0_0) AS l0_0
       , sum(w0_1) AS w0_1, max(q0_1) AS m0_1, min(q0_1) AS l0_1
       , sum(cnt) * 41 AS w0_2, max(q0_2) AS m0_2, min(q0_2) AS l0_2
       , sum(w1_0) AS w1_0, max(q1_0) AS m1_0, min(q1_0) AS l1_0
       , sum(cnt) * 5 AS w1_1, max(q1_1) AS m1_1, min(q1_1) AS l1_1
  FROM "sqlanon_0a1b2c3d_fs"
), combinations AS (
  SELECT q0_0, q0_1, q0_2, q1_0, q1_1
  FROM "sqlanon_0a1b2c3d_fs"
  GROUP BY GROUPING SETS ((q0_0, q0_1, q0_2), (q1_0, q1_1))
), levels AS (
  -- codes are never NULL; the other QIs' columns of a grouping set are, and count(DISTINCT) skips them
  SELECT count(DISTINCT q0_0) AS d0_0, count(DISTINCT q0_1) AS d0_1, count(DISTINCT q0_2) AS d0_2, count(DISTINCT q1_0) AS d1_0, count(DISTINCT q1_1) AS d1_1
  FROM combinations
)
SELECT totals.n, totals.r
  , totals.w0_0, levels.d0_0, totals.m0_0, totals.l0_0
  , totals.w0_1, levels.d0_1, totals.m0_1, totals.l0_1
  , totals.w0_2, levels.d0_2, totals.m0_2, totals.l0_2
  , totals.w1_0, levels.d1_0, totals.m1_0, totals.l1_0
  , totals.w1_1, levels.d1_1, totals.m1_1, totals.l1_1
FROM totals CROSS JOIN levels
-- bind parameters: []

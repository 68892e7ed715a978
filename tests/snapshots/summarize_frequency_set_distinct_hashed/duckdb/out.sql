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
SELECT sum(cnt) AS n, count(*) AS r
     , sum(w0_0), count(DISTINCT q0_0), max(q0_0), min(q0_0)
     , sum(w0_1), count(DISTINCT q0_1), max(q0_1), min(q0_1)
     , sum(w0_2), count(DISTINCT q0_2), max(q0_2), min(q0_2)
     , sum(w1_0), count(DISTINCT q1_0), max(q1_0), min(q1_0)
     , sum(w1_1), count(DISTINCT q1_1), max(q1_1), min(q1_1)
     , sum(w2_0), count(DISTINCT q2_0), max(q2_0), min(q2_0)
     , coalesce(sum(CASE WHEN cnt < ? THEN cnt END), 0) AS below_k
FROM "sqlanon_0a1b2c3d_fs"
-- bind parameters: [5]

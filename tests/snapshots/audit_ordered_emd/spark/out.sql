-- audit_ordered_emd: largest ordered-distance EMD (t-closeness, Li, Li, Venkatasubramanian 2007) of the
-- classes of an existing table: 1/(m-1) sum_{i=1..m} |sum_{j<=i} (p_j - q_j)| over the m distinct values of
-- the whole table in ascending order, NULL last (m = 1: 0).
-- Scaled by size * total, the i-th running sum is D_i = A_i - B_i with A_i = cum_c(i) * total (cum_c: the
-- class's records at positions <= i) and B_i = cum_n(i) * size (cum_n: the table's records at positions
-- <= i). Both are integers, so everything below is exact. The running sums also move across values the class
-- does not hold, but no class x value grid is built: cum_c is constant on each run ("segment") of positions
-- lo..hi from one value of the class to the next, and B_i increases with i, so on a segment
--   sum |A - B_i| = sum (B_i - A) + 2 * sum_{i <= K} (A - B_i),
-- K = the last position with B_i <= A, i.e. cum_n(i) <= floor(A / size) (integers). K is found by merging
-- the segments' thresholds into the sorted cum_n (one window pass); the sums of B_i come from the prefix
-- sums sn(i) = cum_n(1) + ... + cum_n(i). Cost: a sort of (class, value) cells, not classes x m rows.
-- context: table (parts), qis, column
-- columns: t_ordered (NULL for an empty table), m
WITH cells AS (
  SELECT dense_rank() OVER (ORDER BY `age`, `we"ird; col`) AS cid,
         dense_rank() OVER (ORDER BY `pct%col` NULLS LAST) AS pos,
         count(*) AS cnt
  FROM `analytics`.`patients`
  GROUP BY `age`, `we"ird; col`, `pct%col`
), totals AS (
  SELECT sum(cnt) AS total, max(pos) AS m FROM cells
), vals AS (
  -- cum_n and sn per position; position 0 is the empty prefix (cum_n = sn = 0)
  SELECT pos, cum_n, sum(cum_n) OVER (ORDER BY pos) AS sn
  FROM (
    SELECT pos, sum(sum(cnt)) OVER (ORDER BY pos) AS cum_n FROM cells GROUP BY pos
    UNION ALL
    SELECT 0, 0
  ) AS v
), starts AS (
  -- a segment starts at every value of the class (running count cum_c from there on), plus one at
  -- position 1 with cum_c = 0 for the positions before the class's first value (empty if that is 1)
  SELECT cid, pos AS lo, sum(cnt) OVER (PARTITION BY cid ORDER BY pos) AS cum_c, sum(cnt) OVER (PARTITION BY cid) AS size
  FROM cells
  UNION ALL
  SELECT cid, 1, 0, sum(cnt) FROM cells GROUP BY cid
), segments AS (
  SELECT row_number() OVER (ORDER BY s.cid, s.lo, s.cum_c) AS sid, s.cid, s.size, s.lo,
         coalesce(lead(s.lo) OVER (PARTITION BY s.cid ORDER BY s.lo, s.cum_c) - 1, t.m) AS hi,
         s.cum_c * t.total AS a,
         ((s.cum_c * t.total) div (s.size)) AS threshold
  FROM starts AS s CROSS JOIN totals AS t
), merged AS (
  -- value rows sort before segment rows with an equal key, so K = the running maximum position
  SELECT sid, max(pos) OVER (ORDER BY key, kind ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS k
  FROM (
    SELECT NULL AS sid, pos, cum_n AS key, 0 AS kind FROM vals
    UNION ALL
    SELECT sid, NULL, threshold, 1 FROM segments
  ) AS e
), per_segment AS (
  SELECT g.cid, g.size, g.lo, g.hi, g.a, least(g.hi, f.k) AS k
  FROM segments AS g
  JOIN merged AS f ON f.sid = g.sid
), per_class AS (
  SELECT s.cid, max(s.size) AS size,
         sum(s.size * (vh.sn - vl.sn) - s.a * (s.hi - s.lo + 1)
             + CASE WHEN s.k >= s.lo THEN 2 * (s.a * (s.k - s.lo + 1) - s.size * (vk.sn - vl.sn)) ELSE 0 END) AS num
  FROM per_segment AS s
  JOIN vals AS vh ON vh.pos = s.hi
  JOIN vals AS vl ON vl.pos = s.lo - 1
  JOIN vals AS vk ON vk.pos = greatest(s.k, s.lo - 1)
  GROUP BY s.cid
)
-- m = 1: every running sum is 0, so num = 0 and the divisor only needs to be non-zero
SELECT max(CAST(p.num AS DOUBLE) / CAST(p.size * t.total * greatest(t.m - 1, 1) AS DOUBLE)),
       coalesce(max(t.m), 0)
FROM per_class AS p CROSS JOIN totals AS t
-- bind parameters: []

-- audit_sensitive: measures of one sensitive attribute over the equivalence classes of an existing table
-- (sqlanon check; definitions in sqlanon/measures.py). Only one summary row leaves the database.
-- NULL is a value of its own: in the quasi-identifiers (GROUP BY, and window ORDER BY / PARTITION BY treat
-- NULLs as peers) and in the sensitive attribute (one cell per distinct value, NULL included; count(DISTINCT)
-- is never used). Counts stay integers (sums are HUGEINT / numeric); ratios are formed once, at the end.
-- context: table (parts), qis, column, c_num, c_den (recursive (c,l)-diversity, c = c_num / c_den, bound),
--          numeric (None, or 'integer' | 'decimal' | 'float': also measure the class ranges for (k,e)-anonymity)
-- columns: classes, distinct values in the table (NULL included), rows with a NULL value,
--          distinct_l, entropy_l, recursive_l, alpha, t_equal, e (NULL unless numeric)
WITH cells AS (
  -- one row per (class, sensitive value); cid numbers the classes, vid the values
  SELECT dense_rank() OVER (ORDER BY `zip`, `sex`) AS cid,
         dense_rank() OVER (ORDER BY `pct%col` NULLS LAST) AS vid,
         `pct%col` IS NULL AS is_null,
         `pct%col` AS v,
         count(*) AS cnt
  FROM `analytics`.`patients`
  GROUP BY `zip`, `sex`, `pct%col`
), sized AS (
  -- size: class size; n_v: records of the value in the table; r1: largest count of the class;
  -- rnk / tail: position in the class's counts sorted descending and r_rnk + ... + r_m
  SELECT cid, vid, cnt, v,
         sum(cnt) OVER (PARTITION BY cid) AS size,
         sum(cnt) OVER (PARTITION BY vid) AS n_v,
         sum(cnt) OVER () AS total,
         max(cnt) OVER (PARTITION BY cid) AS r1,
         row_number() OVER (PARTITION BY cid ORDER BY cnt DESC, vid) AS rnk,
         sum(cnt) OVER (PARTITION BY cid ORDER BY cnt DESC, vid ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS tail
  FROM cells
), classes AS (
  SELECT cid,
         count(*) AS distinct_values,
         -sum(CAST(cnt AS DOUBLE) / CAST(size AS DOUBLE)
              * ln(CAST(cnt AS DOUBLE) / CAST(size AS DOUBLE))) AS entropy,
         CAST(max(r1) AS DOUBLE) / CAST(max(size) AS DOUBLE) AS alpha,
         -- r_1 < c (r_l + ... + r_m) holds for l = 1..L and fails above (the tail shrinks): L is the largest rnk
         coalesce(max(CASE WHEN CAST(r1 AS DECIMAL(38, 0)) * ? < ? * tail THEN rnk END), 0) AS recursive_l,
         -- 1/2 sum_v |p_v - q_v| = sum_v max(p_v - q_v, 0); only values present in the class can be positive.
         -- Scaled by size * total: p_v - q_v = (cnt * total - n_v * size) / (size * total), an integer numerator.
         CAST(sum(CASE WHEN cnt * total > n_v * size THEN cnt * total - n_v * size ELSE 0 END) AS DOUBLE)
           / CAST(max(size) * max(total) AS DOUBLE) AS t_equal,
         -- (k,e)-anonymity: range of the class, NULLs ignored; a class holding only NULLs has range 0
         coalesce(max(v) - min(v), 0) AS e_range
  FROM sized
  GROUP BY cid
)

SELECT count(*),
       (SELECT coalesce(max(vid), 0) FROM cells),
       (SELECT coalesce(sum(cnt), 0) FROM cells WHERE is_null),
       min(distinct_values),
       exp(min(entropy)),
       min(recursive_l),
       max(alpha),
       max(t_equal),
       min(e_range)
FROM classes
-- bind parameters: [2, 5]

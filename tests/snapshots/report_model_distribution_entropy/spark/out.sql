-- report_model_distribution: how many equivalence classes of a written table have each value of one
-- per-class measure of a sensitive attribute (the report's "how close is each class to its limit").
-- context: table (parts), qis, column, c_num, c_den, numeric (as audit_sensitive),
--          measure ('distinct_values' | 'entropy_l' | 'recursive_l' | 'alpha' | 't_equal' | 'e_range')
-- columns: value (ratios rounded to 2 decimals), classes
WITH cells AS (
  -- one row per (class, sensitive value); cid numbers the classes, vid the values
  SELECT dense_rank() OVER (ORDER BY `age`, `we"ird; col`) AS cid,
         dense_rank() OVER (ORDER BY `pct%col` NULLS LAST) AS vid,
         `pct%col` IS NULL AS is_null,
         count(*) AS cnt
  FROM `analytics`.`we"ird; col`
  GROUP BY `age`, `we"ird; col`, `pct%col`
), sized AS (
  -- size: class size; n_v: records of the value in the table; r1: largest count of the class;
  -- rnk / tail: position in the class's counts sorted descending and r_rnk + ... + r_m
  SELECT cid, vid, cnt,
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
           / CAST(max(size) * max(total) AS DOUBLE) AS t_equal
  FROM sized
  GROUP BY cid
)

SELECT value, count(*) AS classes
FROM (
  SELECT
    round(CAST(exp(entropy) AS DECIMAL(38, 10)), 2)
    AS value
  FROM classes
) AS measured
GROUP BY value
ORDER BY value
-- bind parameters: [1, 3]

-- audit_kpqr: (k,p,q,r)-anonymity (seed 004 Definition 7) of a table, for one sensitive attribute: the classes
-- (equal quasi-identifier values; NULL matches NULL) holding a value that fewer than q * n records of the table
-- hold, the fewest distinct values among them (the largest p the table meets) and the smallest ratio of their
-- population variance to the whole column's (the largest r it meets). q = num / den, compared in integers.
-- A column that is not numeric has no variance: the ratio is NULL.
-- context: table (parts), qis, column, num, den, numeric
-- A column without variance (one value) meets every r: its ratio is 1.
-- columns: classes, classes with a rare value, their fewest distinct values, their smallest variance ratio
WITH cells AS (
  SELECT `AGI`, `we"ird; col` AS v, count(*) AS cnt
  FROM `analytics`.`census_k3`
  GROUP BY `AGI`, `we"ird; col`
), freq AS (
  SELECT v, sum(cnt) AS n_v, sum(sum(cnt)) OVER () AS n FROM cells GROUP BY v
), whole AS (
  SELECT CAST(NULL AS DOUBLE) AS var_all
  FROM `analytics`.`census_k3`
), classes AS (
  SELECT c.`AGI`,          max(CASE WHEN f.n_v * ? < ? * f.n THEN 1 ELSE 0 END) AS has_rare,
         count(*) AS distinct_values
  FROM cells AS c JOIN freq AS f ON f.v IS NOT DISTINCT FROM c.v
  GROUP BY c.`AGI`
), variances AS (
  SELECT `AGI`, CAST(NULL AS DOUBLE) AS var_class
  FROM `analytics`.`census_k3`
  GROUP BY `AGI`
)
SELECT count(*),
       coalesce(sum(cl.has_rare), 0),
       min(CASE WHEN cl.has_rare = 1 THEN cl.distinct_values END),
       min(CASE WHEN cl.has_rare = 1 THEN CASE WHEN w.var_all > 0 THEN coalesce(v.var_class, 0) / w.var_all WHEN w.var_all = 0 THEN 1.0 END END)
FROM classes AS cl
JOIN variances AS v ON v.`AGI` IS NOT DISTINCT FROM cl.`AGI`
CROSS JOIN whole AS w
-- bind parameters: [5, 1]

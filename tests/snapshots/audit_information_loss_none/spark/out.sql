-- audit_information_loss: microaggregation's information loss of a released table against its source, matched
-- row by row on a key column: per quasi-identifier, on the source's scale (z_score: (x - mean) / population
-- standard deviation of the source; range: (x - min) / (max - min); none: x), SSE = the sum of squared
-- differences between the released and the source value, SST = count * var_pop of the source values of the
-- matched rows. Rows of the source missing from the release (suppressed) are left out; NULLs are left out.
-- context: table (released, parts), source (parts), key, qis, scale
-- columns: matched rows, then sse0, sst0, sse1, sst1, ...
WITH s AS (
  SELECT avg(CAST(`AGI` AS DOUBLE)) AS m0,
         stddev_pop(CAST(`AGI` AS DOUBLE)) AS sd0,
         min(CAST(`AGI` AS DOUBLE)) AS lo0,
         max(CAST(`AGI` AS DOUBLE)) AS hi0
  FROM `analytics`.`we"ird; col`
), pairs AS (
  SELECT
    CAST(o.`AGI` AS DOUBLE) AS x0,
    CAST(r.`AGI` AS DOUBLE) AS y0,
    1 AS one
  FROM `analytics`.`we"ird; col` AS o
  JOIN `analytics`.`census_k3` AS r ON r.`id` = o.`id`
  CROSS JOIN s
)
SELECT count(*),
       coalesce(sum((x0 - y0) * (x0 - y0)), 0),
       count(x0) * coalesce(var_pop(x0), 0)
FROM pairs
-- bind parameters: []

-- measure_information_loss: per quasi-identifier, on the scale distances were taken on, SSE (the squared
-- distances of the grouped records to their group's mean) and SST (to the mean of all grouped records), as
-- count * var_pop (never sum(x^2) - n * mean^2, which cancels); suppressed records are left out.
-- context: table (the standardized records), d
-- columns: sse0, sst0, sse1, sst1, ...
WITH g AS (
  SELECT grp, count(z0) * coalesce(var_pop(z0), 0) AS e0, count(z1) * coalesce(var_pop(z1), 0) AS e1
  FROM `sqlanon_0a1b2c3d_mz` WHERE grp >= 0 GROUP BY grp
), t AS (
  SELECT count(z0) * coalesce(var_pop(z0), 0) AS t0, count(z1) * coalesce(var_pop(z1), 0) AS t1
  FROM `sqlanon_0a1b2c3d_mz` WHERE grp >= 0
)
SELECT (SELECT coalesce(sum(e0), 0) FROM g), t.t0, (SELECT coalesce(sum(e1), 0) FROM g), t.t1
FROM t
-- bind parameters: []

-- request_round: one quadtree level deeper for every open request (request mode; Gruteser & Grunwald's interval
-- cloaking): a record goes down to its cell one level below when that cell holds k records (or subjects) of
-- its root and time window; else its present cell is final. Records are not held to share boxes: this protects
-- each request, not the table.
-- context: table (new), state, dims [{x0, w, integral, time}] (space dims only), k, subject, space_levels
-- columns: as the state
CACHE TABLE `sqlanon_0a1b2c3d_cs1` AS
WITH cur AS (
  SELECT rid, r, d0, d1, subj, wi, ls, lt
       , (CASE WHEN d0 IS NULL THEN -1
      WHEN d0 < (? + (CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT)) * (? / power(CAST(2 AS DOUBLE), ls + 1))) THEN CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT) - 1
      WHEN d0 >= (? + (CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT) + 1) * (? / power(CAST(2 AS DOUBLE), ls + 1))) THEN CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT) + 1
      ELSE CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT) END) AS e0
  FROM `sqlanon_0a1b2c3d_cs0`
  WHERE st = 0
),
child AS (
  SELECT r, wi, ls, e0, count(*) AS m
  FROM cur
  GROUP BY r, wi, ls, e0
)
SELECT c.rid, c.r, c.d0, c.d1, c.subj, c.wi,
       CASE WHEN c.ls < 20 AND x.m >= ? THEN c.ls + 1 ELSE c.ls END AS ls,
       c.lt,
       CASE WHEN c.ls < 20 AND x.m >= ? THEN 0 ELSE 1 END AS st
FROM cur AS c
JOIN child AS x ON x.r = c.r AND x.wi = c.wi AND x.ls = c.ls AND x.e0 = c.e0
-- bind parameters: [40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 0.6, 5, 5]

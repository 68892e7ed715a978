-- split_round: one level of top-down splits of every box (table mode). A box is the records of a root at the
-- same levels (ls: space, lt: time) and cells. It may split in space (a quadtree step: each space dimension
-- halved) or in time (halved). A split is taken when every non-empty part keeps k records (or subjects), or
-- when the parts below k can be suppressed: those splits are taken fewest suppressed records first while the
-- remaining suppression budget lasts. Where both splits are possible, the one suppressing fewer records; at
-- equal cost, space while ls <= lt, else time (boxes stay balanced). A box that splits no more is final.
-- context: table (new), state, dims [{x0, w, integral, time}], k, subject, budget, space_levels, time_levels
-- columns: as the state: rid, r, d0.., subj, wi, ls, lt, st (rows of the boxes that were open)
CACHE TABLE `sqlanon_0a1b2c3d_cs1` AS
WITH cur AS (
  SELECT rid, r, subj, wi, ls, lt, d0, d1
       , (CASE WHEN d0 IS NULL THEN -1
      WHEN d0 < (? + (CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls))) AS BIGINT)) * (? / power(CAST(2 AS DOUBLE), ls))) THEN CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls))) AS BIGINT) - 1
      WHEN d0 >= (? + (CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls))) AS BIGINT) + 1) * (? / power(CAST(2 AS DOUBLE), ls))) THEN CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls))) AS BIGINT) + 1
      ELSE CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls))) AS BIGINT) END) AS c0
       , (CASE WHEN d0 IS NULL THEN -1
      WHEN d0 < (? + (CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT)) * (? / power(CAST(2 AS DOUBLE), ls + 1))) THEN CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT) - 1
      WHEN d0 >= (? + (CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT) + 1) * (? / power(CAST(2 AS DOUBLE), ls + 1))) THEN CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT) + 1
      ELSE CAST(floor((d0 - ?) / (? / power(CAST(2 AS DOUBLE), ls + 1))) AS BIGINT) END) AS e0
       , (CASE WHEN d1 IS NULL THEN -1
      WHEN d1 < floor(? + (CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt))) AS BIGINT)) * (? / power(CAST(2 AS DOUBLE), lt))) THEN CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt))) AS BIGINT) - 1
      WHEN d1 >= floor(? + (CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt))) AS BIGINT) + 1) * (? / power(CAST(2 AS DOUBLE), lt))) THEN CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt))) AS BIGINT) + 1
      ELSE CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt))) AS BIGINT) END) AS c1
       , (CASE WHEN d1 IS NULL THEN -1
      WHEN d1 < floor(? + (CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt + 1))) AS BIGINT)) * (? / power(CAST(2 AS DOUBLE), lt + 1))) THEN CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt + 1))) AS BIGINT) - 1
      WHEN d1 >= floor(? + (CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt + 1))) AS BIGINT) + 1) * (? / power(CAST(2 AS DOUBLE), lt + 1))) THEN CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt + 1))) AS BIGINT) + 1
      ELSE CAST(floor((d1 - ?) / (? / power(CAST(2 AS DOUBLE), lt + 1))) AS BIGINT) END) AS e1
  FROM `sqlanon_0a1b2c3d_cs0`
  WHERE st = 0
),
s_child AS (
  SELECT r, ls, lt, c0, c1, e0, count(*) AS n, count(DISTINCT subj) AS m
  FROM cur
  GROUP BY r, ls, lt, c0, c1, e0
),
s_box AS (
  SELECT r, ls, lt, c0, c1,
         CASE WHEN ls < 20 AND max(m) >= ? THEN sum(CASE WHEN m < ? THEN n ELSE 0 END) END AS waste
  FROM s_child
  GROUP BY r, ls, lt, c0, c1
),
t_child AS (
  SELECT r, ls, lt, c0, c1, e1, count(*) AS n, count(DISTINCT subj) AS m
  FROM cur
  GROUP BY r, ls, lt, c0, c1, e1
),
t_box AS (
  SELECT r, ls, lt, c0, c1,
         CASE WHEN lt < 24 AND max(m) >= ? THEN sum(CASE WHEN m < ? THEN n ELSE 0 END) END AS waste
  FROM t_child
  GROUP BY r, ls, lt, c0, c1
),
choice AS (
  SELECT s.r, s.ls, s.lt, s.c0, s.c1,          CASE WHEN s.waste IS NULL AND t.waste IS NULL THEN NULL
              WHEN t.waste IS NULL THEN 's'
              WHEN s.waste IS NULL THEN 't'
              WHEN s.waste < t.waste THEN 's'
              WHEN t.waste < s.waste THEN 't'
              WHEN s.ls <= s.lt THEN 's'
              ELSE 't' END AS opt,
         CASE WHEN s.waste IS NULL THEN t.waste WHEN t.waste IS NULL THEN s.waste
              ELSE least(s.waste, t.waste) END AS waste
  FROM s_box AS s JOIN t_box AS t ON s.r = t.r AND s.ls = t.ls AND s.lt = t.lt AND s.c0 = t.c0 AND s.c1 = t.c1
),
decided AS (
  SELECT r, ls, lt, c0, c1,
         CASE WHEN waste = 0 OR spent <= ? THEN opt END AS opt
  FROM (SELECT r, ls, lt, c0, c1, opt, waste,
               sum(coalesce(waste, 0)) OVER (ORDER BY coalesce(waste, 0), r, ls, lt, c0, c1 ROWS UNBOUNDED PRECEDING) AS spent
        FROM choice) AS ranked
)
SELECT c.rid, c.r, c.d0, c.d1, c.subj, c.wi,
       CASE WHEN x.opt = 's' THEN c.ls + 1 ELSE c.ls END AS ls,
       CASE WHEN x.opt = 't' THEN c.lt + 1 ELSE c.lt END AS lt,
       CASE WHEN x.opt IS NULL THEN 1
            WHEN x.opt = 's' AND s.m < ? THEN 2
            WHEN x.opt = 't' AND t.m < ? THEN 2
            ELSE 0 END AS st
FROM cur AS c
JOIN decided AS x ON x.r = c.r AND x.ls = c.ls AND x.lt = c.lt AND x.c0 = c.c0 AND x.c1 = c.c1
LEFT JOIN s_child AS s ON s.r = c.r AND s.ls = c.ls AND s.lt = c.lt AND s.c0 = c.c0 AND s.c1 = c.c1 AND s.e0 = c.e0
LEFT JOIN t_child AS t ON t.r = c.r AND t.ls = c.ls AND t.lt = c.lt AND t.c0 = c.c0 AND t.c1 = c.c1 AND t.e1 = c.e1
-- bind parameters: [40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 0.6, 40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 0.6, 1709251200000000.0, 1709251200000000.0, 2592000000000.0, 2592000000000.0, 1709251200000000.0, 2592000000000.0, 1709251200000000.0, 1709251200000000.0, 2592000000000.0, 2592000000000.0, 1709251200000000.0, 2592000000000.0, 1709251200000000.0, 2592000000000.0, 1709251200000000.0, 1709251200000000.0, 2592000000000.0, 2592000000000.0, 1709251200000000.0, 2592000000000.0, 1709251200000000.0, 1709251200000000.0, 2592000000000.0, 2592000000000.0, 1709251200000000.0, 2592000000000.0, 1709251200000000.0, 2592000000000.0, 5, 5, 5, 5, 7, 5, 5]

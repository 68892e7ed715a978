-- merge: one round of merges. An edge (a small class and its nearest) is taken when it is the least, by
-- (distance, small class id), of every edge at both of its classes: the edges taken share no class, and the
-- least edge of all is always taken. Each taken pair becomes one class whose representative is the closest
-- common generalization of theirs (KACA, lines 6-7); then classes with equal representatives are one class
-- (line 8). Every old class gets the id of the class it is now in: the least id among those merged.
-- context: table (new: old, cid, size, lv{i}, p{i}_{j}), classes, edges, attrs
CACHE TABLE `sqlanon_0a1b2c3d_lrm0` AS
WITH ends AS (
  SELECT a AS x, a, dist FROM `sqlanon_0a1b2c3d_lre0`
  UNION ALL
  SELECT b AS x, a, dist FROM `sqlanon_0a1b2c3d_lre0`
), least_at AS (
  SELECT x, a, row_number() OVER (PARTITION BY x ORDER BY dist, a) AS rn FROM ends
), taken AS (
  SELECT e.a, e.b FROM `sqlanon_0a1b2c3d_lre0` AS e
  JOIN least_at AS la ON la.x = e.a AND la.rn = 1 AND la.a = e.a
  JOIN least_at AS lb ON lb.x = e.b AND lb.rn = 1 AND lb.a = e.a
), merged AS (
  SELECT s.cid AS a, c.cid AS b, s.size + c.size AS size
       , CASE WHEN s.p0_0 = c.p0_0 THEN 0 WHEN s.p0_1 = c.p0_1 THEN 1 ELSE 2 END AS lv0
       , CASE WHEN s.p1_0 = c.p1_0 THEN 0 ELSE 1 END AS lv1
       , s.p0_0 AS s0_0
       , s.p0_1 AS s0_1
       , s.p0_2 AS s0_2
       , s.p1_0 AS s1_0
       , s.p1_1 AS s1_1
  FROM taken AS t
  JOIN `sqlanon_0a1b2c3d_lrc` AS s ON s.cid = t.a
  JOIN `sqlanon_0a1b2c3d_lrc` AS c ON c.cid = t.b
), next_classes AS (
  SELECT x.cid AS old, x.size, x.lv0, x.p0_0, x.p0_1, x.p0_2, x.lv1, x.p1_0, x.p1_1 FROM `sqlanon_0a1b2c3d_lrc` AS x
  WHERE x.cid NOT IN (SELECT a FROM taken) AND x.cid NOT IN (SELECT b FROM taken)
  UNION ALL
  SELECT m.a AS old, m.size
       , m.lv0, CASE WHEN m.lv0 <= 0 THEN m.s0_0 END, CASE WHEN m.lv0 <= 1 THEN m.s0_1 END, CASE WHEN m.lv0 <= 2 THEN m.s0_2 END
       , m.lv1, CASE WHEN m.lv1 <= 0 THEN m.s1_0 END, CASE WHEN m.lv1 <= 1 THEN m.s1_1 END
  FROM merged AS m
  UNION ALL
  SELECT m.b AS old, 0
       , m.lv0, CASE WHEN m.lv0 <= 0 THEN m.s0_0 END, CASE WHEN m.lv0 <= 1 THEN m.s0_1 END, CASE WHEN m.lv0 <= 2 THEN m.s0_2 END
       , m.lv1, CASE WHEN m.lv1 <= 0 THEN m.s1_0 END, CASE WHEN m.lv1 <= 1 THEN m.s1_1 END
  FROM merged AS m
)
SELECT n.old, min(n.old) OVER (PARTITION BY n.lv0, n.p0_0, n.p0_1, n.p0_2, n.lv1, n.p1_0, n.p1_1) AS cid, n.size, n.lv0, n.p0_0, n.p0_1, n.p0_2, n.lv1, n.p1_0, n.p1_1
FROM next_classes AS n
-- bind parameters: []

-- next_classes: the class table after a round of merges (merge.sql.j2), one row per class.
-- context: table (new), merged (merge.sql.j2's table), attrs
CACHE TABLE `sqlanon_0a1b2c3d_lrc0` AS
SELECT g.*, CAST(CASE g.lv0 WHEN 0 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN 2 END + CASE g.lv1 WHEN 0 THEN 0 WHEN 1 THEN 2 END AS BIGINT) AS d
FROM (
  SELECT n.cid, CAST(sum(n.size) AS BIGINT) AS size, n.lv0, n.p0_0, n.p0_1, n.p0_2, n.lv1, n.p1_0, n.p1_1
  FROM `sqlanon_0a1b2c3d_lrm0` AS n
  GROUP BY n.cid, n.lv0, n.p0_0, n.p0_1, n.p0_2, n.lv1, n.p1_0, n.p1_1
) AS g
-- bind parameters: []

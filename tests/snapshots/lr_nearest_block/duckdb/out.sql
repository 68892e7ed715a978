-- nearest (DuckDB): as the common template, with arg_min over (distance, class id) instead of a window: the
-- pairs are aggregated as they stream by, never sorted.
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_lre2" AS
SELECT a, min(dist) AS dist, arg_min(b, (dist, b)) AS b
FROM (
  SELECT s.cid AS a, c.cid AS b, (s.size + c.size) * (CASE WHEN s.p0_0 = c.p0_0 THEN 0 WHEN s.p0_1 = c.p0_1 THEN 1 ELSE 2 END + CASE WHEN s.p1_0 = c.p1_0 THEN 0 ELSE 2 END) - s.size * s.d - c.size * c.d AS dist
  FROM "sqlanon_0a1b2c3d_lrc" AS s JOIN "sqlanon_0a1b2c3d_lrc" AS c ON c.cid <> s.cid AND c.p0_1 = s.p0_1
  WHERE s.cid IN (SELECT k0 FROM "sqlanon_0a1b2c3d_lrf1")
) AS pairs
GROUP BY a
-- bind parameters: []

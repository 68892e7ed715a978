-- nearest: for each class smaller than k (or the one class `one`), the class whose merge adds the least
-- distortion (the class distance), ties to the lower class id (KACA, lines 4-5); with `block`, among the classes
-- that share its ancestor at the given level of each given quasi-identifier (a hash join on those codes).
-- context: edges (new), classes, attrs, k, failing (as count_small.sql.j2), one (a class id, or none: every
--          class below k or failing a model), block [(i, level)]
-- columns: a (the small class), b (its nearest), dist (the scaled distance)
CACHE TABLE `sqlanon_0a1b2c3d_lre0` AS
SELECT a, b, dist FROM (
  SELECT a, b, dist, row_number() OVER (PARTITION BY a ORDER BY dist, b) AS rn
  FROM (
    SELECT s.cid AS a, c.cid AS b, (s.size + c.size) * (CASE WHEN s.p0_0 = c.p0_0 THEN 0 WHEN s.p0_1 = c.p0_1 THEN 1 ELSE 2 END + CASE WHEN s.p1_0 = c.p1_0 THEN 0 ELSE 2 END) - s.size * s.d - c.size * c.d AS dist
    FROM `sqlanon_0a1b2c3d_lrc` AS s JOIN `sqlanon_0a1b2c3d_lrc` AS c ON c.cid <> s.cid
    WHERE s.size < ?
  ) AS pairs
) AS ranked
WHERE rn = 1
-- bind parameters: [5]

-- measure_ml2: ML2 and dML2 (seed 003, Eq. 4-5) of the released trees against the source's. The frequent
-- subtrees are rooted label paths (a record holds the path from its root down to one of its nodes) held by at
-- least `support` records, mined at every level i of the hierarchies: the source's labels projected to level i
-- (a class's top where it has fewer levels), the release's labels to level i or kept where they are already
-- above it. ML2 = 1 - (source paths frequent in both) / (source paths frequent). dML2 averages over the
-- source's frequent paths: 1/2 * mean over its nodes of (levels its label rose in the release) / (the class's
-- levels above its values) + 1/2 * (its node pairs whose released labels, lifted to the path's level, are related
-- in no released record) / (its node pairs); a path of one node has no pairs.
-- Paths are read by position (at most `depth` nodes): their nodes lifted with a join per position, their
-- prefixes and pairs enumerated, several times faster than unnesting and grouping them back.
-- Three kinds of statement (`what`), none holding more than a slice of the paths in memory:
-- * 'lift' creates `lifted`: every path of both lifted to every level (a table the engine keeps within its
--   memory limit, spilling as needed);
-- * 'mine' adds to `frequent` (the first creates it) the frequent prefixes of `length` nodes of one side
--   (`side`: 0 the source, 1 the release) at one level (`level`). Counting records per prefix needs the
--   distinct (record, prefix) pairs; for every side, level and length at once these outgrew DuckDB's 850 MB
--   memory limit at TPC-H scale factor 1;
-- * 'measure' measures from `frequent`.
-- context: what, lifted (table: released, i, rid, path), frequent (table: released, i, prefix, records),
--          source (paths of value nodes), released (paths), side, level, length, create (mine: the
--          first), ancestors, dgh, map (the release's cut map), heights {cls: height},
--          levels (number of levels), support, depth (the longest path's nodes)
-- returns (measure): frequent source paths, of them also frequent in the release, sum of their dtree
CACHE TABLE `sqlanon_0a1b2c3d_rlifted` AS
WITH levels AS (
  SELECT g.i FROM (SELECT id AS i FROM range(0, 3 + 1)) AS g
), tops AS (
  SELECT 0 AS cls, 3 AS height UNION ALL
  SELECT 1 AS cls, 4 AS height UNION ALL
  SELECT 2 AS cls, 2 AS height
), lift AS (
  -- each node at each level i: itself when at or above i (or its class's top), else its ancestor at level i
  SELECT l.i, a.node, a.anc
  FROM levels AS l
  JOIN `sqlanon_0a1b2c3d_ranc` AS a ON TRUE
  JOIN `sqlanon_0a1b2c3d_rdgh` AS d ON d.id = a.node
  JOIN tops AS t ON t.cls = d.cls
  WHERE a.anc_lvl = CASE WHEN a.node_lvl >= l.i THEN a.node_lvl WHEN l.i >= t.height - 1 THEN t.height - 1 ELSE l.i END
), paths AS (
  SELECT 0 AS released, rid, path FROM `sqlanon_0a1b2c3d_rp0`
  UNION ALL
  SELECT 1, rid, path FROM `sqlanon_0a1b2c3d_rbest`
)
-- every path lifted to every level, node by node (a path has at most `depth` nodes: read by position)
SELECT DISTINCT p.released, v.i, p.rid,
         slice(array(l1.anc, l2.anc, l3.anc), 1, cardinality(p.path)) AS path
  FROM paths AS p CROSS JOIN levels AS v
LEFT JOIN lift AS l1 ON l1.i = v.i AND l1.node = try_element_at(p.path, 1)
LEFT JOIN lift AS l2 ON l2.i = v.i AND l2.node = try_element_at(p.path, 2)
LEFT JOIN lift AS l3 ON l3.i = v.i AND l3.node = try_element_at(p.path, 3)
-- bind parameters: []

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
WITH tops AS (
  SELECT 0 AS cls, 3 AS height UNION ALL
  SELECT 1 AS cls, 4 AS height UNION ALL
  SELECT 2 AS cls, 2 AS height
), lifted AS (
  SELECT * FROM `sqlanon_0a1b2c3d_rlifted`
), frequent AS (
  SELECT released, i, prefix FROM `sqlanon_0a1b2c3d_rfreq`
), source_frequent AS (
  SELECT i, prefix, row_number() OVER (ORDER BY i, prefix) AS fid FROM frequent WHERE released = 0
), image AS (
  -- the released label of a source node: the cut's node above it, or itself where the cut is at or below it
  SELECT a.anc AS node, max(m.gen) AS gen, max(g.lvl) AS gen_lvl
  FROM `sqlanon_0a1b2c3d_ranc` AS a
  JOIN `sqlanon_0a1b2c3d_rbestmap` AS m ON m.leaf = a.node
  JOIN `sqlanon_0a1b2c3d_rdgh` AS g ON g.id = m.gen
  WHERE a.node_lvl = 0
  GROUP BY a.anc
), released_relations AS (
  -- the relations of the release's trees at each level i (its labels lifted as for mining)
  SELECT DISTINCT i, a, b FROM (
    SELECT i, try_element_at(path, 1) AS a, try_element_at(path, 2) AS b FROM lifted WHERE released = 1 AND cardinality(path) >= 2
    UNION ALL
    SELECT i, try_element_at(path, 1) AS a, try_element_at(path, 3) AS b FROM lifted WHERE released = 1 AND cardinality(path) >= 3
    UNION ALL
    SELECT i, try_element_at(path, 2) AS a, try_element_at(path, 3) AS b FROM lifted WHERE released = 1 AND cardinality(path) >= 3
    UNION ALL
    SELECT i, try_element_at(path, 1) AS a, try_element_at(path, 1) AS b FROM lifted WHERE FALSE
  ) AS pairs
), nodes AS (
  SELECT f.fid, f.i, u.o, u.item,
         CASE WHEN im.gen_lvl > d.lvl THEN im.gen ELSE u.item END AS shown,
         CAST(CASE WHEN im.gen_lvl > d.lvl THEN im.gen_lvl - d.lvl ELSE 0 END AS DOUBLE)
           / CAST(greatest(t.height - 1, 1) AS DOUBLE) AS rise
  FROM source_frequent AS f CROSS JOIN LATERAL (SELECT pos + 1 AS o, col AS item FROM (SELECT posexplode(f.prefix))) AS u
  JOIN `sqlanon_0a1b2c3d_rdgh` AS d ON d.id = u.item
  JOIN tops AS t ON t.cls = d.cls
  JOIN image AS im ON im.node = u.item
), pairs AS (
  SELECT x.fid, count(*) AS relations,
         sum(CASE WHEN r.a IS NULL THEN 1 ELSE 0 END) AS broken
  FROM nodes AS x JOIN nodes AS y ON y.fid = x.fid AND y.o > x.o
  LEFT JOIN released_relations AS r ON r.i = x.i AND r.a = x.shown AND r.b = y.shown
  GROUP BY x.fid
), dtree AS (
  SELECT n.fid, 0.5 * avg(n.rise) AS levels_part FROM nodes AS n GROUP BY n.fid
)
SELECT (SELECT count(*) FROM source_frequent),
       (SELECT count(*) FROM source_frequent AS s
        WHERE EXISTS (SELECT 1 FROM frequent AS f WHERE f.released = 1 AND f.i = s.i AND f.prefix = s.prefix)),
       (SELECT sum(d.levels_part + 0.5 * coalesce(CAST(p.broken AS DOUBLE) / p.relations, 0))
        FROM dtree AS d LEFT JOIN pairs AS p ON p.fid = d.fid)
-- bind parameters: []

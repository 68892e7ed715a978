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
INSERT INTO "sqlanon_0a1b2c3d_rfreq"
SELECT CAST(1 AS INTEGER) AS released, CAST(2 AS INTEGER) AS i, prefix,
       count(*) AS records  -- (rid, prefix) are distinct
FROM (SELECT DISTINCT rid, (path)[1:3] AS prefix
      FROM "sqlanon_0a1b2c3d_rlifted"
      WHERE released = 1 AND i = 2 AND cardinality(path) >= 3
     ) AS pre
GROUP BY prefix
HAVING count(*) >= %s
-- bind parameters: [15]

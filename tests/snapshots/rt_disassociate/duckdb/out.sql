-- disassociate: structural disassociation (seed 003, Definition 2) of one round's relations a ~> b at once: on
-- a path through a and, below it, b, b's children move up to b's parent (the path without b) and b becomes a
-- sibling of a (a's path down to a's parent, then b). Paths without both are kept. project_paths.sql.j2 then
-- merges the copies.
-- The relations of a round (cuts.py, ``_round``) have distinct lower labels, and no label of one is the lower
-- label of another, so applying them one after the other gives what this statement does at once: a path loses
-- every b whose a lies above it, and for each such b gains the kept labels above its a, then b. Classes strictly
-- increase along a path, so a label is at most once on it, and a position of a path is the lower label of at
-- most one relation. Positions are read one by one (at most `depth`), as in project_paths.sql.j2.
-- context: table (new), paths, rules (list of (a, b) node ids), depth (the longest path's nodes), only (a table
--          of the rids to rewrite: those holding one of the relations)
-- columns: rid, path
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rsd" AS
WITH rules (a, b) AS (
  VALUES (CAST(? AS INTEGER), CAST(? AS INTEGER)), (CAST(? AS INTEGER), CAST(? AS INTEGER))
), hit AS (
  -- a{j}: the upper label of the relation that takes path[j] away, NULL when it stays
  SELECT p.rid, p.path,
         CASE WHEN array_position(p.path, r1.a) < 1 THEN r1.a END AS a1,
         CASE WHEN array_position(p.path, r2.a) < 2 THEN r2.a END AS a2,
         CASE WHEN array_position(p.path, r3.a) < 3 THEN r3.a END AS a3
  FROM "sqlanon_0a1b2c3d_rtrees0" AS p
  LEFT JOIN rules AS r1 ON r1.b = p.path[1]
  LEFT JOIN rules AS r2 ON r2.b = p.path[2]
  LEFT JOIN rules AS r3 ON r3.b = p.path[3]
  WHERE p.rid IN (SELECT rid FROM "sqlanon_0a1b2c3d_rholders")
), kept AS (
  SELECT rid, path, a1, a2, a3,
         (CASE WHEN a1 IS NULL THEN path[1:1] ELSE (path)[1:0] END) || (CASE WHEN a2 IS NULL THEN path[2:2] ELSE (path)[1:0] END) || (CASE WHEN a3 IS NULL THEN path[3:3] ELSE (path)[1:0] END) AS kept
  FROM hit
)
SELECT rid, kept AS path FROM kept
UNION ALL
SELECT rid, (kept)[1:array_position(kept, a1) - 1] || path[1:1] FROM kept WHERE a1 IS NOT NULL
UNION ALL
SELECT rid, (kept)[1:array_position(kept, a2) - 1] || path[2:2] FROM kept WHERE a2 IS NOT NULL
UNION ALL
SELECT rid, (kept)[1:array_position(kept, a3) - 1] || path[3:3] FROM kept WHERE a3 IS NOT NULL
-- bind parameters: [4, 17, 4, 21]

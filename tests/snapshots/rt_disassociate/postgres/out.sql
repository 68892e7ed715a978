-- disassociate: structural disassociation of a ~> b in every record (seed 003, Definition 2): on a path through a
-- and, below it, b, b's children move up to b's parent (the path without b) and b becomes a sibling of a (a's
-- path down to a's parent, then b). Paths without both are kept. project_paths.sql.j2 then merges the copies.
-- Classes strictly increase along a path, so a label is at most once on it.
-- context: table (new), paths, a, b, only (a table of the rids to rewrite: those holding a ~> b)
-- columns: rid, path
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rsd" AS
WITH hit AS (
  SELECT rid, path, array_position(path, %s) AS i, array_position(path, %s) AS j
  FROM "sqlanon_0a1b2c3d_rtrees0"
  WHERE rid IN (SELECT rid FROM "sqlanon_0a1b2c3d_rholders")
)
SELECT rid, path FROM hit WHERE i IS NULL OR j IS NULL OR j < i
UNION ALL
SELECT rid, path[1:j - 1] || path[j + 1:cardinality(path)] FROM hit WHERE i < j
UNION ALL
SELECT rid, path[1:i - 1] || ARRAY[CAST(%s AS INTEGER)] FROM hit WHERE i < j
-- bind parameters: [4, 17, 17]

-- create_tree_labels: each tree's labels as the structure check reads them: with the labels related below it in
-- that tree (`below`, an array: NULL when none), so that whether a combination's two labels are related is an
-- array lookup instead of a join per pair (joins the engines would plan over the combinations, which are far
-- more than the trees), and whether it is one of the new labels of a specialization at `fresh`. A path's
-- positions i < j give the relation path[i] ~> path[j] (read by position, as create_relations.sql.j2 does); a
-- label below another on several paths is listed as often, which a lookup does not mind.
-- With `path_bits` (no record has more than 63 paths), a label carries instead the paths of its tree it is on,
-- as the bits of a BIGINT (`on_paths`): two labels are related exactly when they share a path (each position of
-- a path is another class), a bitwise AND where a lookup costs an array search; find_fresh_violation.sql.j2
-- reads them. Any numbering of a record's paths will do (Spark's row_number wants an order).
-- context: table (new), paths, depth (the longest path's nodes), fresh (none, or the node a specialization
--          replaced: its children are new), dgh (with fresh), path_bits (optional)
-- columns: rid, item, fresh, below (or on_paths with path_bits)
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rlpaths" AS
WITH numbered AS (
  SELECT rid, path, row_number() OVER (PARTITION BY rid ORDER BY path) - 1 AS path_no FROM "sqlanon_0a1b2c3d_rp0"
)
SELECT l.rid, l.item,
       FALSE AS fresh,
       bit_or(CAST(power(2, l.path_no) AS BIGINT)) AS on_paths
FROM (
  SELECT rid, path[1] AS item, path_no FROM numbered WHERE cardinality(path) >= 1
  UNION ALL
  SELECT rid, path[2] AS item, path_no FROM numbered WHERE cardinality(path) >= 2
  UNION ALL
  SELECT rid, path[3] AS item, path_no FROM numbered WHERE cardinality(path) >= 3
) AS l
GROUP BY l.rid, l.item
-- bind parameters: []

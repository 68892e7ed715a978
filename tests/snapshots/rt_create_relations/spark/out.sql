-- create_relations: each record's ancestor-descendant relations a ~> b between its labels (b anywhere below a
-- on a path). Classes increase down a path and ids follow classes, so a < b. The pairs of positions i < j of
-- a path (at most `depth` nodes) are enumerated in the statement: reading path[i] and path[j] is an order of
-- magnitude faster than unnesting every path twice.
-- context: table (new, or existing with insert), paths, depth (the longest path's nodes), insert (add the rows
--          to `table`)
-- columns: rid, a, b
CACHE TABLE `sqlanon_0a1b2c3d_rrel` AS
SELECT DISTINCT rid, a, b FROM (
  SELECT rid, try_element_at(path, 1) AS a, try_element_at(path, 2) AS b FROM `sqlanon_0a1b2c3d_rtrees0` WHERE cardinality(path) >= 2
  UNION ALL
  SELECT rid, try_element_at(path, 1) AS a, try_element_at(path, 3) AS b FROM `sqlanon_0a1b2c3d_rtrees0` WHERE cardinality(path) >= 3
  UNION ALL
  SELECT rid, try_element_at(path, 2) AS a, try_element_at(path, 3) AS b FROM `sqlanon_0a1b2c3d_rtrees0` WHERE cardinality(path) >= 3
) AS pairs
-- bind parameters: []

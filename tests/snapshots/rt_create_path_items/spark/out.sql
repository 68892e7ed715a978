-- create_path_items: the labels of each record of a table of paths: of the source's paths, each record's value
-- nodes (a cut's labels are their images through its map, create_items.sql.j2). Read by position (a path has
-- at most `depth` nodes), which is much faster than unnesting.
-- context: table (new), paths, depth (the longest path's nodes)
-- columns: rid, item
CACHE TABLE `sqlanon_0a1b2c3d_rli` AS
SELECT DISTINCT rid, item FROM (
  SELECT rid, try_element_at(path, 1) AS item FROM `sqlanon_0a1b2c3d_rp0` WHERE cardinality(path) >= 1
  UNION ALL
  SELECT rid, try_element_at(path, 2) AS item FROM `sqlanon_0a1b2c3d_rp0` WHERE cardinality(path) >= 2
  UNION ALL
  SELECT rid, try_element_at(path, 3) AS item FROM `sqlanon_0a1b2c3d_rp0` WHERE cardinality(path) >= 3
) AS items
-- bind parameters: []

-- rpd_state: a cut's RPD and RPD_a kept in parts (measure_rpd.sql.j2's), so that each specialization of it that
-- needs no disassociation is measured on the records it changes alone (measure_rpd_delta.sql.j2).
-- what: records  -> table (rid, rpd): each record's RPD, the mean over its leaf paths
--       prefixes -> table (prefix, len, sup, cost): the synopsis's nodes with the records holding each, and
--                   for a leaf its term of RPD_a's numerator (NULL for an inner node)
--       totals   -> the records' RPD summed, the records, the synopsis's nodes, its leaves, RPD_a's numerator
-- context: what, table (new; records, prefixes), paths (rid, path: the cut's projection, a row per record's
--          leaf path), dgh, depth (records, prefixes); records, prefixes (the two tables; totals)
CACHE TABLE `sqlanon_0a1b2c3d_rprec` AS
  SELECT p.rid, avg(exp(-(coalesce(ln(CAST(1 * d1.width AS DOUBLE)), 0) + coalesce(ln(CAST(2 * d2.width AS DOUBLE)), 0) + coalesce(ln(CAST(3 * d3.width AS DOUBLE)), 0)))) AS rpd
  FROM `sqlanon_0a1b2c3d_rpc` AS p
  LEFT JOIN `sqlanon_0a1b2c3d_rdgh` AS d1 ON d1.id = try_element_at(p.path, 1)
  LEFT JOIN `sqlanon_0a1b2c3d_rdgh` AS d2 ON d2.id = try_element_at(p.path, 2)
  LEFT JOIN `sqlanon_0a1b2c3d_rdgh` AS d3 ON d3.id = try_element_at(p.path, 3)
  GROUP BY p.rid
-- bind parameters: []

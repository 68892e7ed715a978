-- create_cut_map: each value node's node in a cut: its ancestor (or itself) whose parent is expanded while it
-- is not. The cut is given by its expanded nodes (closed under ancestors; 0, the root of all classes, always).
-- context: table (new), ancestors, dgh, expanded (list of node ids)
-- columns: leaf, gen
CACHE TABLE `sqlanon_0a1b2c3d_rmap` AS
SELECT a.node AS leaf, a.anc AS gen
FROM `sqlanon_0a1b2c3d_ranc` AS a
JOIN `sqlanon_0a1b2c3d_rdgh` AS d ON d.id = a.anc
WHERE a.node_lvl = 0 AND d.parent IN (?, ?, ?)
  AND a.anc NOT IN (?, ?, ?)
-- bind parameters: [0, 4, 9, 0, 4, 9]

-- create_ancestors: every DGH node with each of its ancestors in its class, itself included: what a cut's map
-- (create_cut_map.sql.j2, value nodes only) and the projections of ML2 (measure_ml2.sql.j2) pick from.
-- context: table (new), dgh, max_height
-- columns: node, node_lvl, anc, anc_lvl
CACHE TABLE `sqlanon_0a1b2c3d_ranc` AS
SELECT d0.id AS node, d0.lvl AS node_lvl, d0.id AS anc, d0.lvl AS anc_lvl FROM `sqlanon_0a1b2c3d_rdgh` AS d0
UNION ALL
SELECT d0.id, d0.lvl, d1.id, d1.lvl
FROM `sqlanon_0a1b2c3d_rdgh` AS d0
JOIN `sqlanon_0a1b2c3d_rdgh` AS d1 ON d1.id = d0.parent
UNION ALL
SELECT d0.id, d0.lvl, d2.id, d2.lvl
FROM `sqlanon_0a1b2c3d_rdgh` AS d0
JOIN `sqlanon_0a1b2c3d_rdgh` AS d1 ON d1.id = d0.parent
JOIN `sqlanon_0a1b2c3d_rdgh` AS d2 ON d2.id = d1.parent
UNION ALL
SELECT d0.id, d0.lvl, d3.id, d3.lvl
FROM `sqlanon_0a1b2c3d_rdgh` AS d0
JOIN `sqlanon_0a1b2c3d_rdgh` AS d1 ON d1.id = d0.parent
JOIN `sqlanon_0a1b2c3d_rdgh` AS d2 ON d2.id = d1.parent
JOIN `sqlanon_0a1b2c3d_rdgh` AS d3 ON d3.id = d2.parent
-- bind parameters: []

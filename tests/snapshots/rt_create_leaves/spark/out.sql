-- create_leaves: each class's values (as text, NULL for NULL) with their level-0 DGH node.
-- context: table (new), rows (create_hierarchy_rows.sql.j2), dgh
-- columns: cls, value, id
CACHE TABLE `sqlanon_0a1b2c3d_rlv` AS
SELECT DISTINCT r.cls, r.value, d.id
FROM `sqlanon_0a1b2c3d_rhr` AS r
JOIN `sqlanon_0a1b2c3d_rdgh` AS d ON d.cls = r.cls AND d.lvl = 0 AND d.label IS NOT DISTINCT FROM r.l0
-- bind parameters: []

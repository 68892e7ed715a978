-- create_holder_labels: the labels of the records a specialization changes, as find_fresh_violation.sql.j2 reads
-- them, straight from the source's value nodes: the records holding `node` under the cut (`items`), each of their
-- values through the specialization's map, with the source paths it is on (`on_paths`, the bits of a BIGINT) and
-- whether it is one of the new labels (a child of `node`). No projection of the records' trees is needed: a
-- record's tree under the cut is the image of its source paths, so two of its labels lie on one path of the tree
-- exactly when some source path's image holds both (each position of a path is another class), and a label's
-- paths are the union of its values' paths.
-- context: table (new), leaf_paths (rid, item, on_paths: create_tree_labels.sql.j2 of the source's paths with
--          path_bits), items (the cut's labels: rid, item), map (the specialization's), dgh, node
-- columns: rid, item, fresh, on_paths
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rfitems" AS
SELECT l.rid, m.gen AS item, max(CASE WHEN d.parent = %s THEN 1 ELSE 0 END) = 1 AS fresh,
       bit_or(l.on_paths) AS on_paths
FROM "sqlanon_0a1b2c3d_rlpaths" AS l
JOIN "sqlanon_0a1b2c3d_rmap" AS m ON m.leaf = l.item
JOIN "sqlanon_0a1b2c3d_rdgh" AS d ON d.id = m.gen
WHERE l.rid IN (SELECT h.rid FROM "sqlanon_0a1b2c3d_ritems" AS h WHERE h.item = %s)
GROUP BY l.rid, m.gen
-- bind parameters: [9, 9]

-- create_items: each record's labels under a cut (its set of items): its values through the cut's map.
-- context: table (new), leaf_items (create_path_items.sql.j2 of the source's paths), map (create_cut_map.sql.j2)
-- columns: rid, item
CACHE TABLE `sqlanon_0a1b2c3d_ritems` AS
SELECT DISTINCT l.rid, m.gen AS item FROM `sqlanon_0a1b2c3d_rli` AS l JOIN `sqlanon_0a1b2c3d_rmap` AS m ON m.leaf = l.item
-- bind parameters: []

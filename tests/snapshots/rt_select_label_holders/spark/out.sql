-- select_label_holders: the records holding a label of a cut (those a specialization of that node changes).
-- context: table (new), items (rid, item), node
-- columns: rid
CACHE TABLE `sqlanon_0a1b2c3d_rfrec` AS
SELECT DISTINCT rid FROM `sqlanon_0a1b2c3d_ritems` WHERE item = ?
-- bind parameters: [9]

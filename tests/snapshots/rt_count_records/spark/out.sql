-- count_records: the root table's rows, and the records with at least one node.
-- context: root (the first chain table), paths
SELECT (SELECT count(DISTINCT rid) FROM `sqlanon_0a1b2c3d_rch0`), (SELECT count(DISTINCT rid) FROM `sqlanon_0a1b2c3d_rp0`)
-- bind parameters: []

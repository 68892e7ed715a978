-- count_records: the root table's rows, the records with at least one node, and the most paths a record has.
-- context: root (the first chain table), paths
SELECT (SELECT count(DISTINCT rid) FROM `sqlanon_0a1b2c3d_rch0`), (SELECT count(DISTINCT rid) FROM `sqlanon_0a1b2c3d_rp0`),
       (SELECT max(paths) FROM (SELECT count(*) AS paths FROM `sqlanon_0a1b2c3d_rp0` GROUP BY rid) AS per_record)
-- bind parameters: []

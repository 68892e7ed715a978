-- create_leaf_items: each record's value nodes (its labels before any generalization): a cut's labels are their
-- images through its map (create_items.sql.j2), and a specialization's new labels are read from them.
-- context: table (new), paths
-- columns: rid, item
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rli" AS
SELECT DISTINCT p.rid, u.item FROM "sqlanon_0a1b2c3d_rp0" AS p CROSS JOIN LATERAL unnest(p.path) AS u(item)
-- bind parameters: []

-- create_tree_items: each tree's labels, from its paths.
-- context: table (new), paths
-- columns: rid, item
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rtitems" AS
SELECT DISTINCT p.rid, u.item FROM "sqlanon_0a1b2c3d_rtrees0" AS p CROSS JOIN LATERAL unnest(p.path) AS u(item)
-- bind parameters: []

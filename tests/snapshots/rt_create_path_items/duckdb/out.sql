-- create_path_items: the labels of each record (or tree) of a table of paths: of the source's paths, each
-- record's value nodes (a cut's labels are their images through its map, create_items.sql.j2); of a cut's
-- trees, each tree's labels (the structure check's items).
-- context: table (new), paths
-- columns: rid, item
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rli" AS
SELECT DISTINCT p.rid, u.item FROM "sqlanon_0a1b2c3d_rp0" AS p CROSS JOIN LATERAL unnest(p.path) AS u(item)
-- bind parameters: []

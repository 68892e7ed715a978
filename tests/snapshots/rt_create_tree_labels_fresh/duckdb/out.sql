-- create_tree_labels: each tree's labels as the structure check reads them: with the labels related below it in
-- that tree (`below`, an array: NULL when none), so that whether a combination's two labels are related is an
-- array lookup instead of a join per pair (joins the engines would plan over the combinations, which are far
-- more than the trees), and whether it is one of the new labels of a specialization at `fresh`.
-- context: table (new), paths, relations (create_relations.sql.j2's of the same paths), depth (the longest
--          path's nodes), fresh (none, or the node a specialization replaced: its children are new), dgh
-- columns: rid, item, fresh, below
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rfitems" AS
WITH labels AS (
  SELECT DISTINCT rid, item FROM (
    SELECT rid, path[1] AS item FROM "sqlanon_0a1b2c3d_rfpaths" WHERE cardinality(path) >= 1
    UNION ALL
    SELECT rid, path[2] AS item FROM "sqlanon_0a1b2c3d_rfpaths" WHERE cardinality(path) >= 2
    UNION ALL
    SELECT rid, path[3] AS item FROM "sqlanon_0a1b2c3d_rfpaths" WHERE cardinality(path) >= 3
  ) AS items
)
SELECT l.rid, l.item,
       max(CASE WHEN d.parent = ? THEN 1 ELSE 0 END) = 1 AS fresh,
       array_agg(r.b ORDER BY r.b) FILTER (WHERE r.b IS NOT NULL) AS below
FROM labels AS l
LEFT JOIN "sqlanon_0a1b2c3d_rfrel" AS r ON r.rid = l.rid AND r.a = l.item
JOIN "sqlanon_0a1b2c3d_rdgh" AS d ON d.id = l.item
GROUP BY l.rid, l.item
-- bind parameters: [9]

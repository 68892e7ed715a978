-- write_trees: the released trees (the best cut's, after its disassociations), in random order.
-- One row per node: record_id (numbered in random order: it is no key of the source), node_id
-- (numbered in random order within its record), parent_id (NULL under the record's root), attribute (the node's
-- class), value (its label: a value, a generalization of it, or '*').
-- context: table (new), or_replace, paths, dgh, classes (attribute names by class)
CREATE TABLE "analytics"."sqlanon_tmp_0123456789ab" AS
WITH records AS (
  SELECT rid, row_number() OVER (ORDER BY shuffle, rid) AS record_id
  FROM (SELECT rid, random() AS shuffle FROM (SELECT DISTINCT rid FROM "sqlanon_0a1b2c3d_rbest") AS d) AS r
),
nodes AS (
  SELECT DISTINCT p.rid, (p.path)[1:u.o] AS prefix, u.o AS depth, u.item
  FROM "sqlanon_0a1b2c3d_rbest" AS p CROSS JOIN LATERAL unnest(p.path) WITH ORDINALITY AS u(item, o)
), numbered AS (
  SELECT rid, prefix, depth, item, row_number() OVER (PARTITION BY rid ORDER BY shuffle, prefix) AS node_id
  FROM (SELECT nodes.*, random() AS shuffle FROM nodes) AS s
)
SELECT CAST(r.record_id AS BIGINT) AS record_id, CAST(n.node_id AS INTEGER) AS node_id,
       CAST(up.node_id AS INTEGER) AS parent_id,
       CASE d.cls WHEN 0 THEN CAST(%s AS VARCHAR) WHEN 1 THEN CAST(%s AS VARCHAR) WHEN 2 THEN CAST(%s AS VARCHAR) END AS attribute,
       d.label AS value
FROM numbered AS n
JOIN records AS r ON r.rid = n.rid
JOIN "sqlanon_0a1b2c3d_rdgh" AS d ON d.id = n.item
LEFT JOIN numbered AS up ON up.rid = n.rid AND up.depth = n.depth - 1 AND up.prefix = (n.prefix)[1:n.depth - 1]
ORDER BY random()
-- bind parameters: ['nation', 'we"ird; col', 'pct%col']

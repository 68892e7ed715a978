-- audit_trees: k^(m,n)-anonymity of a table of trees, from its own rows only (record_id, node_id, parent_id,
-- attribute, value; seed 003, Definition 1 read formally): the supports of every combination of 1..m labels
-- (a label: attribute and value, NULL a value of its own) and 0..n ancestor-descendant relations among them that
-- some record holds. Each record's (X, R) are generated once: X in label order, R as a bitmask over X's pairs
-- with two bits per pair (either direction; nothing is assumed of the classes' order).
-- Several statements (`what`), run by sqlanon/audit/trees.py, so that none holds every combination at once:
-- * 'nodes' creates `nodes` (rid, node_id, parent_id, lid: the label's number) and 'up' creates `up` (each
--   node's ancestors, by a recursive walk of parent_id);
-- * 'counts' returns records, nodes, and the nodes whose parent is not a node of their record (or that lie on
--   a cycle, or whose id is repeated);
-- * 'items' creates `items`: each record's labels, each with the labels below it in that record (`below`, an
--   array: whether two labels of a combination are related is an array lookup, not a join per pair);
-- * 'supports' returns, for the combinations of `size` labels whose first label's number is `part` modulo
--   `parts`, the smallest positive support and how many supports are below k (0 without k). Records are first
--   counted per (X, relations present); each count is then spread over the relation sets R it contains.
-- context: what, table (parts), nodes, up, items (scratch table names), max_depth; supports: m, n, masks
--          ({size: [masks with at most n bits over 2 * C(size, 2) bits]}), size, part, parts, k (or none)
SELECT min(support), sum(CASE WHEN support < ? THEN 1 ELSE 0 END)
FROM (
  SELECT sum(held.records) AS support
  FROM (
    SELECT i0.item AS x0, i1.item AS x1, i2.item AS x2, (CASE WHEN nullif(array_position(i0.below, i1.item), 0) IS NULL THEN 0 ELSE 1 END) + (CASE WHEN nullif(array_position(i1.below, i0.item), 0) IS NULL THEN 0 ELSE 2 END) + (CASE WHEN nullif(array_position(i0.below, i2.item), 0) IS NULL THEN 0 ELSE 4 END) + (CASE WHEN nullif(array_position(i2.below, i0.item), 0) IS NULL THEN 0 ELSE 8 END) + (CASE WHEN nullif(array_position(i1.below, i2.item), 0) IS NULL THEN 0 ELSE 16 END) + (CASE WHEN nullif(array_position(i2.below, i1.item), 0) IS NULL THEN 0 ELSE 32 END) AS present,
           count(*) AS records
    FROM `sqlanon_0a1b2c3d_audit_items` AS i0
    JOIN `sqlanon_0a1b2c3d_audit_items` AS i1 ON i1.rid = i0.rid AND i1.item > i0.item
    JOIN `sqlanon_0a1b2c3d_audit_items` AS i2 ON i2.rid = i0.rid AND i2.item > i1.item
    WHERE i0.item % 4 = 1
    GROUP BY x0, x1, x2, present
  ) AS held
  JOIN (VALUES (0), (1), (2), (3), (4), (5), (6), (8), (9), (10), (12), (16), (17), (18), (20), (24), (32), (33), (34), (36), (40), (48)) AS ms(mask)
    ON (held.present & ms.mask) = ms.mask
  GROUP BY held.x0, held.x1, held.x2, ms.mask
) AS supports
-- bind parameters: [20]

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
CACHE TABLE `sqlanon_0a1b2c3d_audit_items` AS
SELECT rid, item, nullif(collect_list(below), array()) AS below
FROM (
  SELECT rid, lid AS item, CAST(NULL AS BIGINT) AS below FROM `sqlanon_0a1b2c3d_audit_nodes`
  UNION ALL
  SELECT u.rid, a.lid, d.lid
  FROM `sqlanon_0a1b2c3d_audit_up` AS u
  JOIN `sqlanon_0a1b2c3d_audit_nodes` AS d ON d.rid = u.rid AND d.node_id = u.node_id
  JOIN `sqlanon_0a1b2c3d_audit_nodes` AS a ON a.rid = u.rid AND a.node_id = u.ancestor
) AS l
GROUP BY rid, item
-- bind parameters: []

-- write_paths: the relational release of a written table of trees: one row per root-to-leaf path, one column per
-- attribute (its label on the path; NULL where the path has no node of it, or where the label is NULL), and
-- path_attributes, the path's attributes from the root down, comma-separated (which tells a NULL label from a
-- missing node: classes increase along a path, so the columns and this list give the path back, and the paths
-- give the tree back). Built from the node table alone, in random order.
-- context: table (new), or_replace, nodes (the written node table, parts), classes (attribute names), depth
CREATE OR REPLACE TABLE `analytics`.`sqlanon_tmp_0123456789ab` AS
WITH RECURSIVE up(record_id, leaf, node, step) AS (
  SELECT n.record_id, n.node_id, n.node_id, 0
  FROM `analytics`.`customer_trees` AS n
  WHERE NOT EXISTS (SELECT 1 FROM `analytics`.`customer_trees` AS c WHERE c.record_id = n.record_id AND c.parent_id = n.node_id)
  UNION ALL
  SELECT u.record_id, u.leaf, p.parent_id, u.step + 1
  FROM up AS u JOIN `analytics`.`customer_trees` AS p ON p.record_id = u.record_id AND p.node_id = u.node
  WHERE p.parent_id IS NOT NULL AND u.step < 3
)
SELECT u.record_id,
       CAST(row_number() OVER (PARTITION BY u.record_id ORDER BY u.leaf) AS INTEGER) AS path_id,
       max(CASE WHEN n.attribute = ? THEN n.value END) AS `nation`,
       max(CASE WHEN n.attribute = ? THEN n.value END) AS `we"ird; col`,
       max(CASE WHEN n.attribute = ? THEN n.value END) AS `pct%col`,
       string_agg(n.attribute, ',') WITHIN GROUP (ORDER BY u.step DESC) AS path_attributes
FROM up AS u JOIN `analytics`.`customer_trees` AS n ON n.record_id = u.record_id AND n.node_id = u.node
GROUP BY u.record_id, u.leaf
ORDER BY random()
-- bind parameters: ['nation', 'we"ird; col', 'pct%col']

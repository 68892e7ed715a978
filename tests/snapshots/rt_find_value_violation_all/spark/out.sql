-- find_value_violation: one combination of `size` labels that some but fewer than k records hold (k^m,
-- seed 003 Algorithm 1 for one size; sizes below m are checked too). With `fresh` (a node of the cut whose
-- items are given, to be replaced by its children), the check is of that specialization, and only of the
-- combinations holding one of the new children, among the records holding `fresh`: the cut passed, and every
-- other combination keeps its support. Each combination is generated once per record: its smallest fresh
-- label first, then the others in id order.
-- context: items (the cut's: rid, item), leaf_items, ancestors, dgh, size, k, fresh (none or a node id)
-- returns: the combination's labels and its support, or no row
WITH r AS (
  SELECT rid, item, TRUE AS fresh FROM `sqlanon_0a1b2c3d_ritems`
)
SELECT x0.item, x1.item, count(*)
FROM r AS x0
JOIN r AS x1 ON x1.rid = x0.rid
  AND x1.item > x0.item
WHERE x0.fresh
GROUP BY x0.item, x1.item
HAVING count(*) < ?
LIMIT 1
-- bind parameters: [20]

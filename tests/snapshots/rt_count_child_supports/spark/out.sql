-- count_child_supports: per DGH node, the fewest records holding a label under one of its children (k^m's single
-- labels, seed 003 Algorithm 1 at size 1). A node one of whose children 1 to k - 1 records hold is expanded by no
-- cut that passes the value check (that child, or a node below it that the data reaches, would be a label held by
-- fewer than k records), which bounds how far a search can specialize below it (``CutEvaluator``).
-- context: leaf_items (rid, item: each record's value nodes), ancestors, dgh
-- returns: parent, the fewest records holding one of its children
SELECT d.parent, min(s.records)
FROM (
  SELECT a.anc AS node, count(DISTINCT l.rid) AS records
  FROM `sqlanon_0a1b2c3d_rli` AS l JOIN `sqlanon_0a1b2c3d_ranc` AS a ON a.node = l.item
  GROUP BY a.anc
) AS s
JOIN `sqlanon_0a1b2c3d_rdgh` AS d ON d.id = s.node
WHERE d.parent IS NOT NULL
GROUP BY d.parent
-- bind parameters: []

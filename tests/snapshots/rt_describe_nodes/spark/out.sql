-- describe_nodes: the class and label of some DGH nodes.
-- context: dgh, ids
SELECT id, cls, label FROM `sqlanon_0a1b2c3d_rdgh` WHERE id IN (?, ?)
-- bind parameters: [3, 17]

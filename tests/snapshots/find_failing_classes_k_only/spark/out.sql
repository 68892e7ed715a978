-- find_failing_classes: the class keys (QI codes at the chosen node's levels) whose records are suppressed,
-- judged exactly as in the node queries (evaluate_node_*.sql.j2), so the written table suppresses what the
-- search counted.
-- context: as the node queries (NodeEvaluator.context), plus failing (new temp table)
-- columns: k0 .. k{q-1}
CACHE TABLE `sqlanon_0a1b2c3d_fail` AS
SELECT q0_2 AS k0, q1_1 AS k1
FROM `sqlanon_0a1b2c3d_fs`
GROUP BY q0_2, q1_1
HAVING sum(cnt) < ?
-- bind parameters: [5]

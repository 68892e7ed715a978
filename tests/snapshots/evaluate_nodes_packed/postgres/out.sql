-- evaluate_nodes_k_anonymity: the k-anonymity feasibility checks of several nodes in one statement, one grouping
-- set per node's class key over one scan of the table (NodeEvaluator.prefetch), where the engine's tuning says
-- so (BATCHED_CHECKS): ADULT's checks eight at a time took PostgreSQL 10 ms against 16.6 one by one.
-- context: as evaluate_node_k_anonymity.sql.j2 without loss_weights, plus groupings (per distinct class key its
--          {levels, grouped, radices} for macros/packed.sql.j2's class_key: columns, or a packed key) and
--          grouped_by (GROUPING's arguments, which number each grouping set as NodeEvaluator.prefetch computes
--          it: a packed key as in groupings, or {column: [qi, level]})
-- columns: grouping_set, then evaluate_node_k_anonymity.sql.j2's columns for that node; no row for a grouping
--          without classes (an empty table), read as a check that found none
SELECT g AS grouping_set, sum(s) FILTER (WHERE s < %s) AS suppressed_records

FROM (
  SELECT GROUPING((CAST(q0_1 AS BIGINT)) * 7 + q1_2, CAST(q0_2 AS BIGINT)) AS g, sum(CAST(cnt AS DOUBLE PRECISION)) AS s
  FROM "sqlanon_0a1b2c3d_fsc"
  GROUP BY GROUPING SETS (((CAST(q0_1 AS BIGINT)) * 7 + q1_2), (CAST(q0_2 AS BIGINT)))
) AS classes
GROUP BY g
-- bind parameters: [5]

-- evaluate_node: equivalence classes of one lattice node, computed from the frequency set. A class fails when it
-- is smaller than k or fails any privacy model on a sensitive attribute (or delta-presence); its records are
-- suppressed together (SEMANTICS.md; seed 000 Algorithm 3). Each query shape is a template that extends this
-- one (evaluate_node_*.sql.j2); NodeEvaluator.template chooses it and renders it once per shape, with a marker
-- in place of each level that every node replaces by its own.
-- context (every shape): table (the frequency set, or a copy of it: NodeEvaluator._table), levels (level per
--          QI), k
-- columns: suppressed_records first; the others are the shape's
-- evaluate_node_sliced: a sliced check, the k-anonymity feasibility check in parts (sqlanon/evaluation/
-- slicing.py): each part of the code table holds whole classes of this node, so the records suppressed in the
-- parts read so far are suppressed by the node, and once they exceed the limit the node is infeasible and the
-- other parts are not read.
-- context: grouped, radices, grouping (as in evaluate_node_k_anonymity.sql.j2), float_sums (see
--          macros/node_query.sql.j2), sliced ({parts, limit, ranges}: the table has a part column, and ranges
--          is the table of each part's row positions where parts are read by them, create_part_ranges.sql.j2)
-- columns: suppressed_records, parts_read (fewer than all parts: the count is a lower bound, above the limit)
WITH RECURSIVE sliced (part, suppressed) AS (
  SELECT 0, CAST(0 AS BIGINT)
  UNION ALL
  SELECT sliced.part + 1, sliced.suppressed + CAST((
    SELECT coalesce(sum(CASE WHEN s < ? THEN s END), 0)
    FROM (
      SELECT sum(f.cnt) AS s
      FROM `we"ird; col` AS f
      WHERE f.part = sliced.part + 1
      GROUP BY (CAST(q0_2 AS BIGINT)) * 100001 + q2_1
    ) AS classes
  ) AS BIGINT)
  FROM sliced
  WHERE sliced.suppressed <= ? AND sliced.part < 4
)
SELECT max(suppressed) AS suppressed_records, max(part) AS parts_read
FROM sliced
-- bind parameters: [5, 0]

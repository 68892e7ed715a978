-- evaluate_node: equivalence classes of one lattice node, computed from the frequency set. A class fails when it
-- is smaller than k or fails any privacy model on a sensitive attribute (or delta-presence); its records are
-- suppressed together (SEMANTICS.md; seed 000 Algorithm 3). Each query shape is a template that extends this
-- one (evaluate_node_*.sql.j2); NodeEvaluator.template chooses it and renders it once per shape, with a marker
-- in place of each level that every node replaces by its own.
-- context (every shape): table (the frequency set, or a copy of it: NodeEvaluator._table), levels (level per
--          QI), k
-- columns: suppressed_records first; the others are the shape's
-- evaluate_node_k_anonymity: the k-anonymity query: a class fails when it is smaller than k.
-- context: grouped (per QI: false when its level has a single code in the data, so grouping by it splits no
--          class), radices (optional: per QI, one more than its largest code; the class key is then the grouped
--          codes packed into one BIGINT as mixed-radix digits, which PostgreSQL hashes and joins faster than
--          several columns), grouping (optional: the class key as SQL, see macros/node_query.sql.j2),
--          float_sums (see macros/node_query.sql.j2), counted (which of classes, suppressed_classes, dm_star to
--          count: a feasibility check counts only what the metric reads), loss_weights (bool: sum each QI's
--          Loss weight column over the suppressed records), fixed (optional: per QI, the Loss weight every row
--          has at the node's level where the frequency set stores no column for it, else none)
-- columns: suppressed_records, then those counted, then b{i} per QI when loss_weights; a sum over no class is
--          NULL, read as 0 (an aggregate FILTER without coalesce is cheaper for DuckDB to bind and run)
SELECT sum(s) FILTER (WHERE s < %s) AS suppressed_records
     , count(*) AS classes
     , count(*) FILTER (WHERE s < %s) AS suppressed_classes
     , sum(s * s) AS dm_star
     , sum(b0) FILTER (WHERE s < %s) AS b0
     , sum(b1) FILTER (WHERE s < %s) AS b1
     , sum(b2) FILTER (WHERE s < %s) AS b2
FROM (
  SELECT sum(cnt) AS s
       , sum(cnt) * 41 AS b0
       , sum(cnt) * 0 AS b1
       , sum(w2_1) AS b2
  FROM "sqlanon_0a1b2c3d_fs"
  GROUP BY q0_2, q1_0, q2_1
) AS classes
-- bind parameters: [5, 5, 5, 5, 5]

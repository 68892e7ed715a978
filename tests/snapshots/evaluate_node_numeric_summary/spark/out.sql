-- evaluate_node: equivalence classes of one lattice node, computed from the frequency set. A class fails when it
-- is smaller than k or fails any privacy model on a sensitive attribute (or delta-presence); its records are
-- suppressed together (SEMANTICS.md; seed 000 Algorithm 3). Each query shape is a template that extends this
-- one (evaluate_node_*.sql.j2); NodeEvaluator.template chooses it and renders it once per shape, with a marker
-- in place of each level that every node replaces by its own.
-- context (every shape): table (the frequency set, or a copy of it: NodeEvaluator._table), levels (level per
--          QI), k
-- columns: suppressed_records first; the others are the shape's
-- evaluate_node_judged: the judged query, where privacy models on sensitive attributes or a population judge
-- the classes besides k (macros/judge.sql.j2); every class key is kept.
-- context: criteria (model contexts), sensitive (per sensitive attribute with models: its domain table and
--          facts, FrequencySet.sensitive), population (frequency set of the population, or none), n (records
--          considered), loss_weights (bool), level_heights (optional: the levels are bind parameters choosing
--          among each QI's level columns, one prepared statement for every node: see NodeEvaluator), radices
--          (optional: the class key packed into one BIGINT, as in evaluate_node_k_anonymity.sql.j2)
-- columns: suppressed_records, classes, suppressed_classes, dm_star, certain (a lower bound on the records
--          suppressed by the node and by every specialization of it), then b{i} per QI when loss_weights
WITH base AS (
  SELECT q0_2 AS k0, q1_1 AS k1, s0, cnt
  FROM `sqlanon_0a1b2c3d_fs`
)
, d0 AS (
  SELECT k0, k1, s0 AS v, sum(cnt) AS c FROM base GROUP BY k0, k1, s0
)
, classes AS (
  SELECT d.k0, d.k1, sum(d.c) AS s
       , max(dom.num) AS max_num, min(dom.num) AS min_num
  FROM d0 AS d
  LEFT JOIN `sqlanon_0a1b2c3d_d0` AS dom ON dom.code = d.v
  GROUP BY d.k0, d.k1
)

, judged AS (
  SELECT classes.*,
         CASE WHEN classes.s < ?
              OR NOT (coalesce(classes.max_num - classes.min_num >= ?, FALSE))
              THEN 1 ELSE 0 END AS failed
       , 0 AS share
  FROM classes
  
)

SELECT coalesce(sum(CASE WHEN failed = 1 THEN s END), 0) AS suppressed_records,
       count(*) AS classes,
       count(CASE WHEN failed = 1 THEN 1 END) AS suppressed_classes,
       sum(s * s) AS dm_star,
       -- records every specialization of the node suppresses too: classes below k, shares of the others
       coalesce(sum(CAST(s AS DOUBLE) * CASE WHEN s < ? THEN 1 ELSE share END), 0) AS certain
FROM judged
-- bind parameters: [4, 10.0, 4]

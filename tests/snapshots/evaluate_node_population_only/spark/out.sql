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
  SELECT q0_0 AS k0, q1_3 AS k1, w0_0 AS w0, w1_3 AS w1, cnt
  FROM `sqlanon_0a1b2c3d_fs`
)
, classes AS (
  SELECT k0, k1, sum(cnt) AS s, sum(w0) AS b0, sum(w1) AS b1
  FROM base GROUP BY k0, k1
)

, pop AS (
  SELECT q0_0 AS k0, q1_3 AS k1, sum(cnt) AS ps
  FROM `sqlanon_0a1b2c3d_pfs`
  GROUP BY k0, k1
)
, judged AS (
  SELECT classes.*,
         CASE WHEN classes.s < ?
              OR NOT (coalesce(CAST(classes.s AS DECIMAL(38, 0)) * ? <= CAST(pop.ps AS DECIMAL(38, 0)) * ?
         AND CAST(classes.s AS DECIMAL(38, 0)) * ? >= CAST(pop.ps AS DECIMAL(38, 0)) * ?, FALSE))
              THEN 1 ELSE 0 END AS failed
       , 0 AS share
  FROM classes
  
  LEFT JOIN pop ON pop.k0 = classes.k0 AND pop.k1 = classes.k1
)

SELECT coalesce(sum(CASE WHEN failed = 1 THEN s END), 0) AS suppressed_records,
       count(*) AS classes,
       count(CASE WHEN failed = 1 THEN 1 END) AS suppressed_classes,
       sum(s * s) AS dm_star,
       -- records every specialization of the node suppresses too: classes below k, shares of the others
       coalesce(sum(CAST(s AS DOUBLE) * CASE WHEN s < ? THEN 1 ELSE share END), 0) AS certain
     , coalesce(sum(CASE WHEN failed = 1 THEN b0 END), 0) AS b0
     , coalesce(sum(CASE WHEN failed = 1 THEN b1 END), 0) AS b1
FROM judged
-- bind parameters: [2, 10, 9, 10, 1, 2]

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
  SELECT (CAST(q0_1 AS BIGINT)) * 4 + q1_0 AS k, s0, s1, w0_1 AS w0, w1_0 AS w1, cnt
  FROM `sqlanon_0a1b2c3d_fs`
)
, d0 AS (
  SELECT k, s0 AS v, sum(cnt) AS c, sum(w0) AS w0, sum(w1) AS w1 FROM base GROUP BY k, s0
)
, classes AS (
  SELECT d.k, sum(d.c) AS s, sum(d.w0) AS b0, sum(d.w1) AS b1
       , count(*) AS nv
       , sum(d.c * ln(CAST(d.c AS DOUBLE))) AS clogc
  FROM d0 AS d
  GROUP BY d.k
)
, d1 AS (
  SELECT k, s1 AS v, sum(cnt) AS c FROM base GROUP BY k, s1
)
, a1 AS (
  SELECT d.k
       , count(*) AS nv
       , max(d.c) AS maxc
       , max(dom.num) AS max_num, min(dom.num) AS min_num
  FROM d1 AS d
  JOIN `sqlanon_0a1b2c3d_d1` AS dom ON dom.code = d.v
  GROUP BY d.k
)


, m3 AS (
  SELECT k, max(CASE WHEN rn = 1 THEN c END) AS r1,
         coalesce(sum(CASE WHEN rn >= ? THEN c END), 0) AS tail
  FROM (SELECT k, c, row_number() OVER (PARTITION BY k ORDER BY c DESC, v) AS rn
        FROM d0) AS ranked
  GROUP BY k
)

, m4 AS (
  SELECT d.k,
         sum(abs(d.c * ? - dom.q * cl.s)) + max(cl.s) * (? - sum(dom.q)) AS emd,
         sum(CASE WHEN d.c * ? > dom.q * cl.s THEN dom.q ELSE 0 END) AS over_q
  FROM d0 AS d
  JOIN `sqlanon_0a1b2c3d_d0` AS dom ON dom.code = d.v
  JOIN classes AS cl ON cl.k = d.k
  GROUP BY d.k
)

, h5 AS (
  SELECT d.k, d.c, cl.s, dom.code, dom.q, dom.`g1` AS g1, dom.`qg1` AS qg1, dom.`g2` AS g2, dom.`qg2` AS qg2
  FROM d0 AS d
  JOIN `sqlanon_0a1b2c3d_d0` AS dom ON dom.code = d.v
  JOIN classes AS cl ON cl.k = d.k
)
, m5 AS (
  SELECT k,
         sum(coef * (abs(cx * ? - qx * s) - qx * s)) + max(s) * ? * ? AS emd
  FROM (
    SELECT k, c AS cx, q AS qx, s, 1 AS coef FROM h5
    UNION ALL
    SELECT k, sum(c), max(qg1), max(s), 1
    FROM h5 GROUP BY k, g1
  ) AS labels
  GROUP BY k
)

, x6 AS (
  SELECT cl.k, dom.code,
         coalesce(d.c, 0) * ? - dom.q * cl.s AS x
  FROM classes AS cl
  CROSS JOIN `sqlanon_0a1b2c3d_d1` AS dom
  LEFT JOIN d1 AS d ON d.k = cl.k AND d.v = dom.code
)
, m6 AS (
  SELECT k, sum(abs(cx)) AS emd
  FROM (SELECT k, sum(x) OVER (PARTITION BY k ORDER BY code
                                          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cx
        FROM x6) AS cumulative
  GROUP BY k
)




, judged AS (
  SELECT classes.*,
         CASE WHEN classes.s < ?
              OR NOT (classes.nv >= ?)
              OR NOT (ln(CAST(classes.s AS DOUBLE)) - classes.clogc / classes.s >= ln(?) - ?)
              OR NOT (CAST(m3.r1 AS DECIMAL(38, 0)) * ? < CAST(m3.tail AS DECIMAL(38, 0)) * ?)
              OR NOT ((2 = 0 OR CAST(m4.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?))
              OR NOT ((4 = 0 OR CAST(m5.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?))
              OR NOT ((39 = 0 OR CAST(m6.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?))
              OR NOT (a1.nv >= ?)
              OR NOT (CAST(a1.maxc AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ?)
              OR NOT (coalesce(a1.max_num - a1.min_num >= ?, FALSE))
              THEN 1 ELSE 0 END AS failed
       , greatest(greatest(1 - (ln(CAST(classes.s AS DOUBLE)) - classes.clogc / classes.s)
             / (ln(?) - ?), 0), CASE WHEN NOT ((2 = 0 OR CAST(m4.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?)) THEN
  CAST(CAST(m4.emd AS DECIMAL(38, 0)) * ? - CAST(classes.s AS DECIMAL(38, 0)) * ? * ? AS DOUBLE)
  / CAST(CAST(classes.s AS DECIMAL(38, 0)) * (2 * (CAST(? AS DECIMAL(38, 0)) - CAST(m4.over_q AS DECIMAL(38, 0))) * ? - CAST(? AS DECIMAL(38, 0)) * ?) AS DOUBLE)
ELSE 0 END, CASE WHEN NOT ((4 = 0 OR CAST(m5.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?)) THEN
  CAST(CAST(m5.emd AS DECIMAL(38, 0)) * ? - CAST(classes.s AS DECIMAL(38, 0)) * ? * ? AS DOUBLE)
  / CAST(CAST(classes.s AS DECIMAL(38, 0)) * (CAST(? AS DECIMAL(38, 0)) * ? - CAST(? AS DECIMAL(38, 0)) * ?) AS DOUBLE)
ELSE 0 END, CASE WHEN NOT ((39 = 0 OR CAST(m6.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?)) THEN
  CAST(CAST(m6.emd AS DECIMAL(38, 0)) * ? - CAST(classes.s AS DECIMAL(38, 0)) * ? * ? AS DOUBLE)
  / CAST(CAST(classes.s AS DECIMAL(38, 0)) * (CAST(? AS DECIMAL(38, 0)) * ? - CAST(? AS DECIMAL(38, 0)) * ?) AS DOUBLE)
ELSE 0 END) AS share
  FROM classes
  LEFT JOIN a1 ON a1.k = classes.k
  
  
  LEFT JOIN m3 ON m3.k = classes.k

  LEFT JOIN m4 ON m4.k = classes.k

  LEFT JOIN m5 ON m5.k = classes.k

  LEFT JOIN m6 ON m6.k = classes.k

  
  
  
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
-- bind parameters: [2, 30162, 30162, 30162, 30162, 30162, 2, 30162, 5, 3, 2.5, 1e-09, 1, 4, 5, 30162, 2, 5, 30162, 4, 10, 30162, 117, 2, 2, 1, 5000.0, 2.5, 1e-09, 5, 30162, 2, 5, 30162, 2, 30162, 5, 30162, 2, 5, 30162, 4, 5, 30162, 4, 3100, 5, 30162, 4, 10, 30162, 117, 10, 30162, 117, 41000, 10, 30162, 117, 5]

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
WITH base AS NOT MATERIALIZED (
  SELECT CASE ? WHEN 0 THEN q0_0 WHEN 1 THEN q0_1 WHEN 2 THEN q0_2 END AS k0, CASE ? WHEN 0 THEN q1_0 WHEN 1 THEN q1_1 END AS k1, s0, s1, CASE ? WHEN 0 THEN cnt * 0 WHEN 1 THEN w0_1 WHEN 2 THEN cnt * 12 END AS w0, CASE ? WHEN 0 THEN cnt * 0 WHEN 1 THEN cnt * 3 END AS w1, cnt
  FROM "sqlanon_0a1b2c3d_fs"
)
, d0 AS (
  SELECT k0, k1, s0 AS v, sum(cnt) AS c, sum(w0) AS w0, sum(w1) AS w1 FROM base GROUP BY k0, k1, s0
)
, classes AS (
  SELECT d.k0, d.k1, sum(d.c) AS s, sum(d.w0) AS b0, sum(d.w1) AS b1
       , count(*) AS nv
       , sum(d.c * ln(CAST(d.c AS DOUBLE PRECISION))) AS clogc
  FROM d0 AS d
  GROUP BY d.k0, d.k1
)
, d1 AS (
  SELECT k0, k1, s1 AS v, sum(cnt) AS c FROM base GROUP BY k0, k1, s1
)
, a1 AS (
  SELECT d.k0, d.k1
       , count(*) AS nv
       , max(d.c) AS maxc
       , max(dom.num) AS max_num, min(dom.num) AS min_num
  FROM d1 AS d
  JOIN "sqlanon_0a1b2c3d_d1" AS dom ON dom.code = d.v
  GROUP BY d.k0, d.k1
)


, m3 AS (
  SELECT k0, k1, max(CASE WHEN rn = 1 THEN c END) AS r1,
         coalesce(sum(CASE WHEN rn >= ? THEN c END), 0) AS tail
  FROM (SELECT k0, k1, c, row_number() OVER (PARTITION BY k0, k1 ORDER BY c DESC, v) AS rn
        FROM d0) AS ranked
  GROUP BY k0, k1
)

, m4 AS (
  SELECT d.k0, d.k1,
         sum(abs(d.c * ? - dom.q * cl.s)) + max(cl.s) * (? - sum(dom.q)) AS emd,
         sum(CASE WHEN d.c * ? > dom.q * cl.s THEN dom.q ELSE 0 END) AS over_q
  FROM d0 AS d
  JOIN "sqlanon_0a1b2c3d_d0" AS dom ON dom.code = d.v
  JOIN classes AS cl ON cl.k0 = d.k0 AND cl.k1 = d.k1
  GROUP BY d.k0, d.k1
)

, h5 AS (
  SELECT d.k0, d.k1, d.c, cl.s, dom.code, dom.q, dom."g1" AS g1, dom."qg1" AS qg1, dom."g2" AS g2, dom."qg2" AS qg2
  FROM d0 AS d
  JOIN "sqlanon_0a1b2c3d_d0" AS dom ON dom.code = d.v
  JOIN classes AS cl ON cl.k0 = d.k0 AND cl.k1 = d.k1
)
, m5 AS (
  SELECT k0, k1,
         sum(coef * (abs(cx * ? - qx * s) - qx * s)) + max(s) * ? * ? AS emd
  FROM (
    SELECT k0, k1, c AS cx, q AS qx, s, 1 AS coef FROM h5
    UNION ALL
    SELECT k0, k1, sum(c), max(qg1), max(s), 1
    FROM h5 GROUP BY k0, k1, g1
  ) AS labels
  GROUP BY k0, k1
)

, x6 AS (
  SELECT cl.k0, cl.k1, dom.code,
         coalesce(d.c, 0) * ? - dom.q * cl.s AS x
  FROM classes AS cl
  CROSS JOIN "sqlanon_0a1b2c3d_d1" AS dom
  LEFT JOIN d1 AS d ON d.k0 = cl.k0 AND d.k1 = cl.k1 AND d.v = dom.code
)
, m6 AS (
  SELECT k0, k1, sum(abs(cx)) AS emd
  FROM (SELECT k0, k1, sum(x) OVER (PARTITION BY k0, k1 ORDER BY code
                                          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cx
        FROM x6) AS cumulative
  GROUP BY k0, k1
)





, pop AS (
  SELECT CASE ? WHEN 0 THEN q0_0 WHEN 1 THEN q0_1 WHEN 2 THEN q0_2 END AS k0, CASE ? WHEN 0 THEN q1_0 WHEN 1 THEN q1_1 END AS k1, sum(cnt) AS ps
  FROM "sqlanon_0a1b2c3d_pfs"
  GROUP BY k0, k1
)
, judged AS (
  SELECT classes.*,
         CASE WHEN classes.s < ?
              OR NOT (classes.nv >= ?)
              OR NOT (ln(CAST(classes.s AS DOUBLE PRECISION)) - classes.clogc / classes.s >= ln(?) - ?)
              OR NOT (CAST(m3.r1 AS DECIMAL(38, 0)) * ? < CAST(m3.tail AS DECIMAL(38, 0)) * ?)
              OR NOT ((2 = 0 OR CAST(m4.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?))
              OR NOT ((4 = 0 OR CAST(m5.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?))
              OR NOT ((39 = 0 OR CAST(m6.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?))
              OR NOT (a1.nv >= ?)
              OR NOT (CAST(a1.maxc AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ?)
              OR NOT (coalesce(a1.max_num - a1.min_num >= ?, FALSE))
              OR NOT (coalesce(CAST(classes.s AS DECIMAL(38, 0)) * ? <= CAST(pop.ps AS DECIMAL(38, 0)) * ?
         AND CAST(classes.s AS DECIMAL(38, 0)) * ? >= CAST(pop.ps AS DECIMAL(38, 0)) * ?, FALSE))
              THEN 1 ELSE 0 END AS failed
       , greatest(greatest(1 - (ln(CAST(classes.s AS DOUBLE PRECISION)) - classes.clogc / classes.s)
             / (ln(?) - ?), 0), CASE WHEN NOT ((2 = 0 OR CAST(m4.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?)) THEN
  CAST(CAST(m4.emd AS DECIMAL(38, 0)) * ? - CAST(classes.s AS DECIMAL(38, 0)) * ? * ? AS DOUBLE PRECISION)
  / CAST(CAST(classes.s AS DECIMAL(38, 0)) * (2 * (CAST(? AS DECIMAL(38, 0)) - CAST(m4.over_q AS DECIMAL(38, 0))) * ? - CAST(? AS DECIMAL(38, 0)) * ?) AS DOUBLE PRECISION)
ELSE 0 END, CASE WHEN NOT ((4 = 0 OR CAST(m5.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?)) THEN
  CAST(CAST(m5.emd AS DECIMAL(38, 0)) * ? - CAST(classes.s AS DECIMAL(38, 0)) * ? * ? AS DOUBLE PRECISION)
  / CAST(CAST(classes.s AS DECIMAL(38, 0)) * (CAST(? AS DECIMAL(38, 0)) * ? - CAST(? AS DECIMAL(38, 0)) * ?) AS DOUBLE PRECISION)
ELSE 0 END, CASE WHEN NOT ((39 = 0 OR CAST(m6.emd AS DECIMAL(38, 0)) * ? <= CAST(classes.s AS DECIMAL(38, 0)) * ? * ?)) THEN
  CAST(CAST(m6.emd AS DECIMAL(38, 0)) * ? - CAST(classes.s AS DECIMAL(38, 0)) * ? * ? AS DOUBLE PRECISION)
  / CAST(CAST(classes.s AS DECIMAL(38, 0)) * (CAST(? AS DECIMAL(38, 0)) * ? - CAST(? AS DECIMAL(38, 0)) * ?) AS DOUBLE PRECISION)
ELSE 0 END) AS share
  FROM classes
  LEFT JOIN a1 ON a1.k0 = classes.k0 AND a1.k1 = classes.k1
  
  
  LEFT JOIN m3 ON m3.k0 = classes.k0 AND m3.k1 = classes.k1

  LEFT JOIN m4 ON m4.k0 = classes.k0 AND m4.k1 = classes.k1

  LEFT JOIN m5 ON m5.k0 = classes.k0 AND m5.k1 = classes.k1

  LEFT JOIN m6 ON m6.k0 = classes.k0 AND m6.k1 = classes.k1

  
  
  
  
  LEFT JOIN pop ON pop.k0 = classes.k0 AND pop.k1 = classes.k1
)

SELECT coalesce(sum(CASE WHEN failed = 1 THEN s END), 0) AS suppressed_records,
       count(*) AS classes,
       count(CASE WHEN failed = 1 THEN 1 END) AS suppressed_classes,
       sum(s * s) AS dm_star,
       -- records every specialization of the node suppresses too: classes below k, shares of the others
       coalesce(sum(CAST(s AS DOUBLE PRECISION) * CASE WHEN s < ? THEN 1 ELSE share END), 0) AS certain
     , coalesce(sum(CASE WHEN failed = 1 THEN b0 END), 0) AS b0
     , coalesce(sum(CASE WHEN failed = 1 THEN b1 END), 0) AS b1
FROM judged
-- bind parameters: [1, 0, 1, 0, 2, 30162, 30162, 30162, 30162, 30162, 2, 30162, 1, 0, 5, 3, 2.5, 1e-09, 1, 4, 5, 30162, 2, 5, 30162, 4, 10, 30162, 117, 2, 2, 1, 5000.0, 2, 1, 1, 0, 2.5, 1e-09, 5, 30162, 2, 5, 30162, 2, 30162, 5, 30162, 2, 5, 30162, 4, 5, 30162, 4, 3100, 5, 30162, 4, 10, 30162, 117, 10, 30162, 117, 41000, 10, 30162, 117, 5]

-- measure_modification: the modification rate's cells of full-domain generalization at the chosen node, in one
-- statement over the frequency set: the records, those suppressed (their classes judged exactly as
-- find_failing_classes.sql.j2 judges them: k alone, or every privacy model and the population), and per
-- quasi-identifier the kept records whose released label at the node's level differs from their value (a label
-- equal to the value, as a hierarchy may repeat a value at level 1, is no modification; a NULL kept as NULL
-- neither). A suppressed record's cells are all modified: the caller adds them.
-- The frequency set is read once, grouped into the node's classes with their modified cells: per hierarchy the
-- records whose level-0 code is among those with a label at the node's level other than their value (an IN
-- over the small coded table, no join: ADULT's eight joins cost DuckDB ~6 ms more to plan than the rest of the
-- statement; a class without such records sums to NULL, which the sums below skip). With models, the judged
-- classes are joined to those classes.
-- Where the caller lists a level's modified level-0 codes (hierarchies coded in Python: `listed`, (negated, codes),
-- encoding.modified_codes), the filter reads the list instead of the coded table: none (level 0: nothing
-- modified), every record (a single top), or the codes in or not in a short list (each lookup in the coded table
-- cost DuckDB ~0.5 ms: ADULT's statement 6.5 ms with them, 2.4 ms with none).
-- context: as the node queries (NodeEvaluator.context, on the frequency set), plus hierarchies [{coded, level,
--          listed (optional: none, or (negated, codes))}]
-- columns: records, suppressed, m0 .. m{q-1}
WITH base AS (
  SELECT q0_0 AS k0, q1_2 AS k1, s0, s1, cnt
  FROM `sqlanon_0a1b2c3d_fs`
)
, d0 AS (
  SELECT k0, k1, s0 AS v, sum(cnt) AS c FROM base GROUP BY k0, k1, s0
)
, classes AS (
  SELECT d.k0, d.k1, sum(d.c) AS s
       , count(*) AS nv
       , sum(d.c * ln(CAST(d.c AS DOUBLE))) AS clogc
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
  JOIN `sqlanon_0a1b2c3d_d1` AS dom ON dom.code = d.v
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
  JOIN `sqlanon_0a1b2c3d_d0` AS dom ON dom.code = d.v
  JOIN classes AS cl ON cl.k0 = d.k0 AND cl.k1 = d.k1
  GROUP BY d.k0, d.k1
)

, h5 AS (
  SELECT d.k0, d.k1, d.c, cl.s, dom.code, dom.q, dom.`g1` AS g1, dom.`qg1` AS qg1, dom.`g2` AS g2, dom.`qg2` AS qg2
  FROM d0 AS d
  JOIN `sqlanon_0a1b2c3d_d0` AS dom ON dom.code = d.v
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
  CROSS JOIN `sqlanon_0a1b2c3d_d1` AS dom
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
  SELECT q0_0 AS k0, q1_2 AS k1, sum(cnt) AS ps
  FROM `sqlanon_0a1b2c3d_pfs`
  GROUP BY k0, k1
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
              OR NOT (coalesce(CAST(classes.s AS DECIMAL(38, 0)) * ? <= CAST(pop.ps AS DECIMAL(38, 0)) * ?
         AND CAST(classes.s AS DECIMAL(38, 0)) * ? >= CAST(pop.ps AS DECIMAL(38, 0)) * ?, FALSE))
              THEN 1 ELSE 0 END AS failed
  FROM classes
  LEFT JOIN a1 ON a1.k0 = classes.k0 AND a1.k1 = classes.k1
  
  
  LEFT JOIN m3 ON m3.k0 = classes.k0 AND m3.k1 = classes.k1

  LEFT JOIN m4 ON m4.k0 = classes.k0 AND m4.k1 = classes.k1

  LEFT JOIN m5 ON m5.k0 = classes.k0 AND m5.k1 = classes.k1

  LEFT JOIN m6 ON m6.k0 = classes.k0 AND m6.k1 = classes.k1

  
  
  
  
  LEFT JOIN pop ON pop.k0 = classes.k0 AND pop.k1 = classes.k1
)

, cells AS (
  SELECT f.q0_0 AS k0, f.q1_2 AS k1, sum(f.cnt) AS s
       , sum(f.cnt) FILTER (WHERE f.q0_0 IN (SELECT g0 FROM `sqlanon_0a1b2c3d_c0`
                                                   WHERE `l0` IS DISTINCT FROM value)) AS m0
       , sum(f.cnt) FILTER (WHERE f.q1_0 IN (SELECT g0 FROM `sqlanon_0a1b2c3d_c1`
                                                   WHERE `l2` IS DISTINCT FROM value)) AS m1
  FROM `sqlanon_0a1b2c3d_fs` AS f
  GROUP BY f.q0_0, f.q1_2
)
SELECT CAST(coalesce(sum(c.s), 0) AS BIGINT) AS records,
       CAST(coalesce(sum(CASE WHEN j.failed = 1 THEN c.s END), 0) AS BIGINT) AS suppressed
     , CAST(coalesce(sum(CASE WHEN j.failed = 0 THEN c.m0 END), 0) AS BIGINT) AS m0
     , CAST(coalesce(sum(CASE WHEN j.failed = 0 THEN c.m1 END), 0) AS BIGINT) AS m1
FROM cells AS c
JOIN judged AS j ON j.k0 = c.k0 AND j.k1 = c.k1
-- bind parameters: [2, 30162, 30162, 30162, 30162, 30162, 2, 30162, 3, 3, 2.5, 1e-09, 1, 4, 5, 30162, 2, 5, 30162, 4, 10, 30162, 117, 2, 2, 1, 5000.0, 2, 1, 1, 0]

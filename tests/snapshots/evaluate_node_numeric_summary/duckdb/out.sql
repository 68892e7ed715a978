-- evaluate_node: equivalence classes of one lattice node, computed from the frequency set.
-- A class fails when it is smaller than k or fails any privacy model on a sensitive attribute (or
-- delta-presence); its records are suppressed together (SEMANTICS.md; seed 000 Algorithm 3).
-- context: table, levels (level per QI), k, loss_weights (bool), criteria (model contexts, may be empty),
--          sensitive [{domain, height, values, numeric}], population (frequency set of the population or none),
--          n (records considered), grouped (per QI, k-anonymity query only: false when its level has a
--          single code in the data, so grouping by it splits no class; CUP on PostgreSQL: node queries
--          10.3 -> 9.1 s), float_sums (sum counts and Loss weights as DOUBLE PRECISION: the caller
--          has checked that every sum is an integer below 2^53, so each is exact; PostgreSQL sums BIGINT
--          into NUMERIC, which made its node queries up to twice as slow), level_heights (models or a
--          population only, optional: levels are bind parameters choosing among each QI's level columns, one
--          prepared statement for every node; see NodeEvaluator), radices (optional: per QI, one more than its
--          largest code; the class key is then the grouped codes packed into one BIGINT as mixed-radix digits,
--          which PostgreSQL hashes and joins faster than several columns: see NodeEvaluator),
--          grouping (k-anonymity query only, optional: its class key as SQL, as macros/packed.sql.j2's class_key
--          renders it for levels, grouped and radices: NodeEvaluator renders a query once per shape and its key
--          once per grouping; ADULT k=5 5% DM*: 100 renders of this template in a run, 11 ms),
--          counted (k-anonymity query only: which of classes, suppressed_classes, dm_star
--          to count; a feasibility check counts only what the metric reads: see NodeEvaluator),
--          code_weights (k-anonymity query with loss_weights only, optional: the table of each code's Loss
--          weight, build_code_weights.sql.j2; every QI is then grouped, by its column),
--          sliced (k-anonymity feasibility check counting nothing else, optional: {parts, limit, ranges}, the
--          table having a part column, see slicing.py, and ranges the table of each part's row positions
--          where parts are read by them, create_part_ranges.sql.j2; columns: suppressed_records, parts_read)
-- columns: suppressed_records, then classes, suppressed_classes, dm_star (all with models or a population, else
--          those counted; in k-anonymity queries a sum over no class is NULL, read as 0: an aggregate FILTER
--          without coalesce cost DuckDB 2.0 ~0.09 ms less to bind and run than coalesce(sum(CASE ...)), 7% of
--          ADULT k=5 5% DM*'s node queries), [certain: with models or a population, a lower bound on the suppressed records of
--          the node and of every specialization (judge.sql.j2)], then b{i} per QI when loss_weights
WITH base AS NOT MATERIALIZED (
  SELECT q0_2 AS k0, q1_1 AS k1, s0, cnt
  FROM "sqlanon_0a1b2c3d_fs"
)
, d0 AS (
  SELECT k0, k1, s0 AS v, sum(cnt) AS c FROM base GROUP BY k0, k1, s0
)
, classes AS (
  SELECT d.k0, d.k1, sum(d.c) AS s
       , max(dom.num) AS max_num, min(dom.num) AS min_num
  FROM d0 AS d
  LEFT JOIN "sqlanon_0a1b2c3d_d0" AS dom ON dom.code = d.v
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
       coalesce(sum(CAST(s AS DOUBLE PRECISION) * CASE WHEN s < ? THEN 1 ELSE share END), 0) AS certain
FROM judged
-- bind parameters: [4, 10.0, 4]

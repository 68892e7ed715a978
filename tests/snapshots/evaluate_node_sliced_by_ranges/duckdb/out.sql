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
-- A feasibility check in parts (sliced; sqlanon/evaluation/slicing.py): each part of the code table holds whole
-- classes of this node, so the records suppressed in the parts read so far are suppressed by the node, and once
-- they exceed the limit the node is infeasible and the other parts are not read (CUP on PostgreSQL: 906 -> 410
-- ms over a run's checks). The parts read are returned: fewer than all, and the count is a lower bound.
WITH RECURSIVE sliced (part, suppressed) AS (
  SELECT 0, CAST(0 AS BIGINT)
  UNION ALL
  SELECT sliced.part + 1, sliced.suppressed + CAST((
    SELECT coalesce(sum(CASE WHEN s < ? THEN s END), 0)
    FROM (
      SELECT sum(f.cnt) AS s
      FROM "we""ird; col" AS f
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

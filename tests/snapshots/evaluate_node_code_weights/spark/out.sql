-- evaluate_node: equivalence classes of one lattice node, computed from the frequency set. A class fails when it
-- is smaller than k or fails any privacy model on a sensitive attribute (or delta-presence); its records are
-- suppressed together (SEMANTICS.md; seed 000 Algorithm 3). Each query shape is a template that extends this
-- one (evaluate_node_*.sql.j2); NodeEvaluator.template chooses it and renders it once per shape, with a marker
-- in place of each level that every node replaces by its own.
-- context (every shape): table (the frequency set, or a copy of it: NodeEvaluator._table), levels (level per
--          QI), k
-- columns: suppressed_records first; the others are the shape's
-- evaluate_node_code_weights: the k-anonymity query with every class statistic and the Loss weights, each QI's
-- looked up per code in the table of code weights (build_code_weights.sql.j2): a class's records share each
-- QI's code, hence its weight, so the suppressed classes' sizes are summed per code of each QI (few rows) and
-- multiplied by the code's weight, instead of summing a weight column per row of the frequency set.
-- context: float_sums (see macros/node_query.sql.j2), code_weights (the table of each code's Loss weight);
--          every QI is grouped, by its column
-- columns: suppressed_records, classes, suppressed_classes, dm_star, then b{i} per QI
WITH classes AS (
  SELECT q0_2 AS k0, q1_0 AS k1, q2_1 AS k2, sum(CAST(cnt AS DOUBLE)) AS s
  FROM `sqlanon_0a1b2c3d_fsc`
  GROUP BY q0_2, q1_0, q2_1
), shares AS (
  SELECT CASE WHEN GROUPING(k0) = 0 THEN 0 WHEN GROUPING(k1) = 0 THEN 1 WHEN GROUPING(k2) = 0 THEN 2 END AS qi,
         CASE WHEN GROUPING(k0) = 0 THEN k0 WHEN GROUPING(k1) = 0 THEN k1 WHEN GROUPING(k2) = 0 THEN k2 END AS code,
         sum(s) AS s
  FROM classes
  WHERE s < ?
  GROUP BY GROUPING SETS ((k0), (k1), (k2))
)
SELECT counts.*, weights.*
FROM (
  SELECT sum(s) FILTER (WHERE s < ?) AS suppressed_records,
         count(*) AS classes,
         count(*) FILTER (WHERE s < ?) AS suppressed_classes,
         sum(s * s) AS dm_star
  FROM classes
) AS counts
CROSS JOIN (
  SELECT sum(shares.s * cw.w) FILTER (WHERE shares.qi = 0) AS b0
       , sum(shares.s * cw.w) FILTER (WHERE shares.qi = 1) AS b1
       , sum(shares.s * cw.w) FILTER (WHERE shares.qi = 2) AS b2
  FROM shares
  JOIN `we"ird; col` AS cw
    ON cw.qi = shares.qi AND cw.code = shares.code
   AND cw.lvl = CASE shares.qi WHEN 0 THEN 2 WHEN 1 THEN 0 WHEN 2 THEN 1 END
) AS weights
-- bind parameters: [5, 5, 5]

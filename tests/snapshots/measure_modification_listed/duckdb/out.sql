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
WITH cells AS (
  SELECT f.q0_0 AS k0, f.q1_2 AS k1, f.q2_1 AS k2, f.q3_3 AS k3, sum(f.cnt) AS s
       , CASE WHEN sum(f.cnt) < ? THEN 1 ELSE 0 END AS failed
       , CAST(NULL AS BIGINT) AS m0
       , sum(f.cnt) AS m1
       , sum(f.cnt) FILTER (WHERE f.q2_0 NOT IN (7)) AS m2
       , sum(f.cnt) FILTER (WHERE f.q3_0 IN (SELECT g0 FROM "sqlanon_0a1b2c3d_c3"
                                                   WHERE "l3" IS DISTINCT FROM value)) AS m3
  FROM "sqlanon_0a1b2c3d_fs" AS f
  GROUP BY f.q0_0, f.q1_2, f.q2_1, f.q3_3
)
SELECT CAST(coalesce(sum(c.s), 0) AS BIGINT) AS records,
       CAST(coalesce(sum(CASE WHEN c.failed = 1 THEN c.s END), 0) AS BIGINT) AS suppressed
     , CAST(coalesce(sum(CASE WHEN c.failed = 0 THEN c.m0 END), 0) AS BIGINT) AS m0
     , CAST(coalesce(sum(CASE WHEN c.failed = 0 THEN c.m1 END), 0) AS BIGINT) AS m1
     , CAST(coalesce(sum(CASE WHEN c.failed = 0 THEN c.m2 END), 0) AS BIGINT) AS m2
     , CAST(coalesce(sum(CASE WHEN c.failed = 0 THEN c.m3 END), 0) AS BIGINT) AS m3
FROM cells AS c
-- bind parameters: [5]

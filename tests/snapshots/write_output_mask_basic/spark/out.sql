-- write_output: the anonymized table under a temporary name. Quasi-identifiers are generalized through the
-- lookup tables (extended match); records of the classes listed in `failing` (judged by find_failing_classes
-- against k and every privacy model) are removed or masked; identifier/ignore columns are dropped, the rest
-- is copied. Rows in random order (unsorted matching attack, seed 002).
-- context: table (new table parts), or_replace (bool: replace a table of that name in this one statement, where
--          the engine publishes so: output/writer.py), source, columns [{name, qi_index or none}],
--          qis [{column, coded, level}], failing (temp table of failing class keys), mask (bool), basic (bool)
CREATE TABLE `sqlanon_tmp_ba9876543210` AS
WITH generalized AS (
  SELECT
    src.`length_of_stay` AS o2,
    h0.`l1` AS q0,
    h0.`g1` AS k0,
    h1.`l3` AS q1,
    h1.`g3` AS k1,
    1 AS one
  FROM `sqlanon_0a1b2c3d_src` AS src
  JOIN `sqlanon_0a1b2c3d_c0` AS h0 ON CAST(src.`age` AS STRING) IS NOT DISTINCT FROM h0.value
  JOIN `sqlanon_0a1b2c3d_c1` AS h1 ON CAST(src.`pct%col` AS STRING) IS NOT DISTINCT FROM h1.value
  WHERE src.`age` IS NOT NULL AND src.`pct%col` IS NOT NULL
), classified AS (
  SELECT generalized.*, f.k0 IS NOT NULL AS suppressed
  FROM generalized
  LEFT JOIN `sqlanon_0a1b2c3d_fail` AS f
    ON f.k0 = generalized.k0 AND f.k1 = generalized.k1
)
SELECT
  CASE WHEN suppressed THEN CAST(? AS STRING) ELSE q1 END AS `pct%col`,
  CASE WHEN suppressed THEN CAST(? AS STRING) ELSE q0 END AS `age`,
  o2 AS `length_of_stay`
FROM classified
ORDER BY random()
-- bind parameters: ['*', '*']

-- write_output: the anonymized table under a temporary name. Quasi-identifiers are generalized through the
-- lookup tables (extended match); records of the classes listed in `failing` (judged by find_failing_classes
-- against k and every privacy model) are removed or masked; identifier/ignore columns are dropped, the rest
-- is copied. Rows in random order (unsorted matching attack, seed 002).
-- context: table (new table parts), or_replace (bool: replace a table of that name in this one statement, where
--          the engine publishes so: output/writer.py), source, columns [{name, qi_index or none}],
--          qis [{column, coded, level}], failing (temp table of failing class keys), mask (bool), basic (bool)
CREATE TABLE `analytics`.`sqlanon_tmp_0123456789ab` AS
WITH generalized AS (
  SELECT
    src.`diagnosis` AS o1,
    h0.`l2` AS q0,
    h0.`g2` AS k0,
    h1.`l0` AS q1,
    h1.`g0` AS k1,
    1 AS one
  FROM `analytics`.`we"ird; col` AS src
  JOIN `sqlanon_0a1b2c3d_c0` AS h0 ON CAST(src.`age` AS STRING) IS NOT DISTINCT FROM h0.value
  JOIN `sqlanon_0a1b2c3d_c1` AS h1 ON CAST(src.`we"ird; col` AS STRING) IS NOT DISTINCT FROM h1.value
), classified AS (
  SELECT generalized.*, f.k0 IS NOT NULL AS suppressed
  FROM generalized
  LEFT JOIN `sqlanon_0a1b2c3d_fail` AS f
    ON f.k0 = generalized.k0 AND f.k1 = generalized.k1
)
SELECT
  q0 AS `age`,
  o1 AS `diagnosis`,
  q1 AS `we"ird; col`
FROM classified
WHERE NOT suppressed
ORDER BY random()
-- bind parameters: []

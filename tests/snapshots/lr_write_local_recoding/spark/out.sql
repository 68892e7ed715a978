-- write_local_recoding: the released table. Each record's quasi-identifiers are the labels of its class's
-- representative: its own hierarchy row's label at the class's level (a record's class generalizes it).
-- Records whose class was suppressed are left out, or masked ('*'); identifier/ignore columns are dropped, the
-- rest copied; rows in random order (set_random_seed seeds it).
-- context: table (new), or_replace, source, columns [{name, qi_index}], qis [{column, coded, height}], members,
--          classes, mask, basic
CREATE TABLE `analytics`.`sqlanon_tmp_0123456789ab` AS
WITH released AS (
  SELECT
    src.`diagnosis` AS o1,
    CASE k.lv0 WHEN 0 THEN h0.`l0` WHEN 1 THEN h0.`l1` WHEN 2 THEN h0.`l2` END AS q0,
    CASE k.lv1 WHEN 0 THEN h1.`l0` WHEN 1 THEN h1.`l1` END AS q1,
    k.cid IS NULL AS suppressed
  FROM `analytics`.`we"ird; col` AS src
  JOIN `sqlanon_0a1b2c3d_c0` AS h0 ON CAST(src.`age` AS STRING) IS NOT DISTINCT FROM h0.value
  JOIN `sqlanon_0a1b2c3d_c1` AS h1 ON CAST(src.`we"ird; col` AS STRING) IS NOT DISTINCT FROM h1.value
  JOIN `sqlanon_0a1b2c3d_lrmem` AS m ON m.f0 = h0.g0 AND m.f1 = h1.g0
  LEFT JOIN `sqlanon_0a1b2c3d_lrc` AS k ON k.cid = m.cid
  WHERE src.`age` IS NOT NULL AND src.`we"ird; col` IS NOT NULL
)
SELECT
  CASE WHEN suppressed THEN CAST(? AS STRING) ELSE q0 END AS `age`,
  o1 AS `diagnosis`,
  CASE WHEN suppressed THEN CAST(? AS STRING) ELSE q1 END AS `we"ird; col`
FROM released
ORDER BY random()
-- bind parameters: ['*', '*']

-- build_verification_set: the written table read back into the shape of a frequency set, so that the
-- privacy models can be re-checked on what was actually written. Output labels are mapped back to their
-- hierarchy codes at the chosen levels (labels are unique per level; NULL labels match NULL, extended
-- match); rows whose labels do not exist at that level (masked '*' rows) drop out. Sensitive values are
-- coded through the domain tables built from the source.
-- context: table (new temp table), output (parts), qis [{column, coded, level}], sensitive [{column, domain}]
-- columns: q{i}_{level_i}, s{j}, cnt
CACHE TABLE `sqlanon_0a1b2c3d_vfs` AS
SELECT m0.g AS q0_2, m1.g AS q1_0, d0.code AS s0, count(*) AS cnt
FROM `analytics`.`we"ird; col` AS o
JOIN (SELECT DISTINCT CASE WHEN `l2` IS NULL THEN 'N' ELSE 'V' || `l2` END AS label_key,
             `g2` AS g
      FROM `sqlanon_0a1b2c3d_c0`) AS m0
  ON m0.label_key = CASE WHEN o.`age` IS NULL THEN 'N' ELSE 'V' || CAST(o.`age` AS STRING) END
JOIN (SELECT DISTINCT CASE WHEN `l0` IS NULL THEN 'N' ELSE 'V' || `l0` END AS label_key,
             `g0` AS g
      FROM `sqlanon_0a1b2c3d_c1`) AS m1
  ON m1.label_key = CASE WHEN o.`we"ird; col` IS NULL THEN 'N' ELSE 'V' || CAST(o.`we"ird; col` AS STRING) END
JOIN `sqlanon_0a1b2c3d_d0` AS d0
  ON d0.match_key = CASE WHEN o.`diagnosis` IS NULL THEN 'N' ELSE 'V' || CAST(o.`diagnosis` AS STRING) END
GROUP BY m0.g, m1.g, d0.code
-- bind parameters: []

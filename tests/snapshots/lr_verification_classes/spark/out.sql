-- verification_classes: the written table read back into judge_classes.sql.j2's shape: each distinct
-- combination of released quasi-identifier values is a class (numbered in their order), its sensitive values
-- coded through the domain tables built from the source. With `mask`, rows whose every quasi-identifier is
-- '*' are suppressed records (output/verify.py counts them against the limit) and left out.
-- context: table (new), output (parts), qis (column names), sensitive [{column, domain}], mask
-- columns: q0_0, s{j}, cnt
CACHE TABLE `sqlanon_0a1b2c3d_lrj` AS
SELECT dense_rank() OVER (ORDER BY c0, c1) AS q0_0
, s0, cnt
FROM (
  SELECT CAST(o.`age` AS STRING) AS c0, CAST(o.`we"ird; col` AS STRING) AS c1, d0.code AS s0, count(*) AS cnt
  FROM `analytics`.`t_out` AS o
  JOIN `sqlanon_0a1b2c3d_d0` AS d0
    ON d0.match_key = CASE WHEN o.`diagnosis` IS NULL THEN 'N' ELSE 'V' || CAST(o.`diagnosis` AS STRING) END
  WHERE NOT (o.`age` = ? AND o.`we"ird; col` = ?)
  GROUP BY CAST(o.`age` AS STRING), CAST(o.`we"ird; col` AS STRING), d0.code
) AS g
-- bind parameters: ['*', '*']

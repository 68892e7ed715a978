-- build_mask_hierarchy: right-to-left masking of fixed-length codes (13053 -> 1305* -> ... -> *****).
-- Values of another length get NULL labels, which hierarchy validation reports by value.
-- context: lookup, source, column, length, char
-- returns: nothing
INSERT INTO `sqlanon_0a1b2c3d_h1`
SELECT v, v
  , CASE WHEN length(v) = 5 THEN substr(v, 1, 4) || ? END
  , CASE WHEN length(v) = 5 THEN substr(v, 1, 3) || ? END
  , CASE WHEN length(v) = 5 THEN substr(v, 1, 2) || ? END
  , CASE WHEN length(v) = 5 THEN substr(v, 1, 1) || ? END
  , CASE WHEN length(v) = 5 THEN substr(v, 1, 0) || ? END
FROM (SELECT DISTINCT CAST(`we"ird; col` AS STRING) AS v FROM `analytics`.`we"ird; col` WHERE `we"ird; col` IS NOT NULL) AS d
-- bind parameters: ['*', '**', '***', '****', '*****']

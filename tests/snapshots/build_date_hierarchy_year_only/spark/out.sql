-- build_date_hierarchy: day -> month (YYYY-MM) -> year (YYYY) -> decade (1990s) -> '*'.
-- context: lookup, source, column, levels (subset of month, year, decade, in order)
-- returns: nothing
INSERT INTO `sqlanon_0a1b2c3d_h3`
SELECT CAST(v AS STRING), CAST(v AS STRING)
  , CAST(CAST(extract(year FROM v) AS INTEGER) AS STRING)
  , ?
FROM (SELECT DISTINCT CAST(`we"ird; col` AS DATE) AS v FROM `analytics`.`we"ird; col` WHERE `we"ird; col` IS NOT NULL) AS d
-- bind parameters: ['*']

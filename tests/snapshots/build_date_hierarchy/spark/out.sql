-- build_date_hierarchy: day -> month (YYYY-MM) -> year (YYYY) -> decade (1990s) -> '*'.
-- context: lookup, source, column, levels (subset of month, year, decade, in order)
-- returns: nothing
INSERT INTO `sqlanon_0a1b2c3d_h3`
SELECT CAST(v AS STRING), CAST(v AS STRING)
  , CAST(CAST(extract(year FROM v) AS INTEGER) AS STRING) || '-' || lpad(CAST(CAST(extract(month FROM v) AS INTEGER) AS STRING), 2, '0')
  , CAST(CAST(extract(year FROM v) AS INTEGER) AS STRING)
  , CAST(CAST(floor(extract(year FROM v) / 10) * 10 AS INTEGER) AS STRING) || 's'
  , ?
FROM (SELECT DISTINCT CAST(`admitted` AS DATE) AS v FROM `analytics`.`patients` WHERE `admitted` IS NOT NULL) AS d
-- bind parameters: ['*']

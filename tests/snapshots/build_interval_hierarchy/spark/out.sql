-- build_interval_hierarchy: numeric intervals [lo, lo + width) per level, '*' on top, for every distinct value.
-- context: lookup, source, column, widths (list of int)
-- returns: nothing
INSERT INTO `sqlanon_0a1b2c3d_h0`
SELECT CAST(v AS STRING), CAST(v AS STRING)
  , '[' || CAST(CAST(floor(CAST(v AS DOUBLE) / 5) * 5 AS BIGINT) AS STRING) || ', '
        || CAST(CAST(floor(CAST(v AS DOUBLE) / 5) * 5 AS BIGINT) + 5 AS STRING) || ')'
  , '[' || CAST(CAST(floor(CAST(v AS DOUBLE) / 10) * 10 AS BIGINT) AS STRING) || ', '
        || CAST(CAST(floor(CAST(v AS DOUBLE) / 10) * 10 AS BIGINT) + 10 AS STRING) || ')'
  , '[' || CAST(CAST(floor(CAST(v AS DOUBLE) / 20) * 20 AS BIGINT) AS STRING) || ', '
        || CAST(CAST(floor(CAST(v AS DOUBLE) / 20) * 20 AS BIGINT) + 20 AS STRING) || ')'
  , ?
FROM (SELECT DISTINCT `age` AS v FROM `analytics`.`patients` WHERE `age` IS NOT NULL) AS d
-- bind parameters: ['*']

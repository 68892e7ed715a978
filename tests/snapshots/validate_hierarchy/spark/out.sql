-- validate_hierarchy: problems of one hierarchy against the data, at most `limit` of each kind.
-- context: lookup, source (or none: the hierarchy alone, without the scan of the data for values missing from
--          level 0, which the session checks through the frequency set's record count), column, height, limit
-- columns: problem (missing | ambiguous | inconsistent | incomplete), value, detail (count or level), total
WITH missing AS (
  SELECT CAST(s.`we"ird; col` AS STRING) AS value, count(*) AS n
  FROM `analytics`.`we"ird; col` AS s
  WHERE s.`we"ird; col` IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM `sqlanon_0a1b2c3d_h0` AS h WHERE h.value = CAST(s.`we"ird; col` AS STRING))
  GROUP BY CAST(s.`we"ird; col` AS STRING)
), ambiguous AS (
  -- min <> max: two different non-NULL labels, as count(DISTINCT) > 1 but hashed instead of sorted per level;
  -- bytewise, because only (in)equality matters and PostgreSQL's linguistic comparison is slow. Only values
  -- on several rows can be ambiguous: finding those first spares the text min/max of every row. The NULL
  -- value's rows always go through (IN never matches NULL).
  SELECT value, lvl FROM (
    SELECT value, CASE
      WHEN min(`l0`) <> max(`l0`) THEN 0
      WHEN min(`l1`) <> max(`l1`) THEN 1
      WHEN min(`l2`) <> max(`l2`) THEN 2
    END AS lvl
    FROM `sqlanon_0a1b2c3d_h0`
    WHERE value IS NULL
       OR value IN (SELECT value FROM `sqlanon_0a1b2c3d_h0` WHERE value IS NOT NULL GROUP BY value HAVING count(*) > 1)
    GROUP BY value
  ) AS first_ambiguous
  WHERE lvl IS NOT NULL
), inconsistent AS (
  SELECT `l0` AS value, 1 AS lvl FROM `sqlanon_0a1b2c3d_h0`
  WHERE value IS NOT NULL GROUP BY `l0` HAVING min(`l1`) <> max(`l1`)
  UNION ALL
  SELECT `l1` AS value, 2 AS lvl FROM `sqlanon_0a1b2c3d_h0`
  WHERE value IS NOT NULL GROUP BY `l1` HAVING min(`l2`) <> max(`l2`)
  UNION ALL
  SELECT CAST(NULL AS STRING) AS value, CAST(NULL AS INTEGER) AS lvl WHERE FALSE  -- named: height 1 has no other branch
), incomplete AS (
  SELECT value, CASE
    WHEN `l0` IS NULL THEN 0
    WHEN `l1` IS NULL THEN 1
    WHEN `l2` IS NULL THEN 2
  END AS lvl
  FROM `sqlanon_0a1b2c3d_h0`
  WHERE value IS NOT NULL AND (`l0` IS NULL OR `l1` IS NULL OR `l2` IS NULL)
)
SELECT * FROM (
  SELECT 'missing' AS problem, value, n AS detail, count(*) OVER () AS total FROM missing
  ORDER BY n DESC, value LIMIT 20
) AS m
UNION ALL
SELECT * FROM (
  SELECT 'ambiguous' AS problem, value, min(lvl) AS detail, count(*) OVER () AS total FROM ambiguous GROUP BY value
  ORDER BY value LIMIT 20
) AS a
UNION ALL
SELECT * FROM (
  SELECT 'inconsistent', value, min(lvl), count(*) OVER () FROM inconsistent GROUP BY value ORDER BY value LIMIT 20
) AS i
UNION ALL
SELECT * FROM (
  SELECT 'incomplete', value, min(lvl), count(*) OVER () FROM incomplete GROUP BY value ORDER BY value LIMIT 20
) AS c
-- bind parameters: []

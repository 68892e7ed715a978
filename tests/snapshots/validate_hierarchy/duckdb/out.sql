-- validate_hierarchy: problems of one hierarchy against the data, at most `limit` of each kind.
-- context: lookup, source, column, height, limit
-- columns: problem (missing | ambiguous | inconsistent | incomplete), value, detail (count or level), total
WITH missing AS (
  SELECT CAST(s."we""ird; col" AS VARCHAR) AS value, count(*) AS n
  FROM "analytics"."we""ird; col" AS s
  WHERE s."we""ird; col" IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "sqlanon_0a1b2c3d_h0" AS h WHERE h.value = CAST(s."we""ird; col" AS VARCHAR))
  GROUP BY CAST(s."we""ird; col" AS VARCHAR)
), ambiguous AS (
  SELECT value, 0 AS lvl FROM "sqlanon_0a1b2c3d_h0" GROUP BY value HAVING count(DISTINCT "l0") > 1
UNION ALL
  SELECT value, 1 AS lvl FROM "sqlanon_0a1b2c3d_h0" GROUP BY value HAVING count(DISTINCT "l1") > 1
UNION ALL
  SELECT value, 2 AS lvl FROM "sqlanon_0a1b2c3d_h0" GROUP BY value HAVING count(DISTINCT "l2") > 1

), inconsistent AS (
  SELECT "l0" AS value, 1 AS lvl FROM "sqlanon_0a1b2c3d_h0"
  WHERE value IS NOT NULL GROUP BY "l0" HAVING count(DISTINCT "l1") > 1
  UNION ALL
  SELECT "l1" AS value, 2 AS lvl FROM "sqlanon_0a1b2c3d_h0"
  WHERE value IS NOT NULL GROUP BY "l1" HAVING count(DISTINCT "l2") > 1
  UNION ALL
  SELECT NULL, NULL WHERE FALSE
), incomplete AS (
  SELECT value, 0 AS lvl FROM "sqlanon_0a1b2c3d_h0" WHERE value IS NOT NULL AND "l0" IS NULL
UNION ALL
  SELECT value, 1 AS lvl FROM "sqlanon_0a1b2c3d_h0" WHERE value IS NOT NULL AND "l1" IS NULL
UNION ALL
  SELECT value, 2 AS lvl FROM "sqlanon_0a1b2c3d_h0" WHERE value IS NOT NULL AND "l2" IS NULL

)
SELECT * FROM (
  SELECT 'missing' AS problem, value, n AS detail, count(*) OVER () AS total FROM missing
  ORDER BY n DESC, value LIMIT 20
) AS m
UNION ALL
SELECT * FROM (
  SELECT 'ambiguous', value, min(lvl), count(*) OVER () FROM ambiguous GROUP BY value ORDER BY value LIMIT 20
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

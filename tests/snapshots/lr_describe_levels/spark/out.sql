-- describe_levels: per quasi-identifier and level, the classes and records released at that level (local
-- recoding mixes levels within a column).
-- context: classes, attrs
SELECT 0 AS qi, lv0 AS level, count(*) AS classes, CAST(sum(size) AS BIGINT) AS records
FROM `sqlanon_0a1b2c3d_lrc` GROUP BY lv0
UNION ALL
SELECT 1 AS qi, lv1 AS level, count(*) AS classes, CAST(sum(size) AS BIGINT) AS records
FROM `sqlanon_0a1b2c3d_lrc` GROUP BY lv1
ORDER BY qi, level
-- bind parameters: []

-- describe_parts: the records of each part not yet grouped (how many MDAV rounds each needs), and the
-- suppressed records (part NULL).
-- context: table (the standardized records)
-- columns: part (NULL for the suppressed), records
SELECT CASE WHEN grp IS NULL THEN part END AS part, count(*) AS records
FROM `sqlanon_0a1b2c3d_mz`
WHERE grp IS NULL OR grp = -1
GROUP BY 1
ORDER BY 1
-- bind parameters: []

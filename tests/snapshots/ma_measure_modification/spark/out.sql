-- measure_modification: the modification rate's cells of the microaggregated release, in one statement: the
-- records, those suppressed (grp < 0), and per quasi-identifier the grouped records whose released value (the
-- group's mean, rounded as write_microaggregated.sql.j2 rounds it) differs from their own value as a double (a
-- member equal to its group's mean is no modification; a NULL released as NULL neither). A suppressed record's
-- cells are all modified: the caller adds them.
-- context: records (create_records), rid, groups (the standardized records, grp set), qis (column, round)
-- columns: records, suppressed, m0 .. m{d-1}
WITH means AS (
  SELECT z.grp, avg(CAST(r.`AGI` AS DOUBLE)) AS m0, avg(CAST(r.`we"ird; col` AS DOUBLE)) AS m1
  FROM `sqlanon_0a1b2c3d_mr` AS r JOIN `sqlanon_0a1b2c3d_mz` AS z ON z.rid = r.`sqlanon_rid`
  WHERE z.grp >= 0
  GROUP BY z.grp
)
SELECT CAST(count(*) AS BIGINT) AS records,
       CAST(count(CASE WHEN z.grp < 0 THEN 1 END) AS BIGINT) AS suppressed
     , CAST(count(CASE WHEN z.grp >= 0 AND m.m0 IS DISTINCT FROM CAST(r.`AGI` AS DOUBLE) THEN 1 END) AS BIGINT) AS m0
     , CAST(count(CASE WHEN z.grp >= 0 AND round(m.m1, 2) IS DISTINCT FROM CAST(r.`we"ird; col` AS DOUBLE) THEN 1 END) AS BIGINT) AS m1
FROM `sqlanon_0a1b2c3d_mr` AS r
JOIN `sqlanon_0a1b2c3d_mz` AS z ON z.rid = r.`sqlanon_rid`
LEFT JOIN means AS m ON m.grp = z.grp
-- bind parameters: []

-- standardize_records: one row per record with its quasi-identifiers on the scale distances are taken on
-- (z_score: (x - mean) / population standard deviation; range: (x - min) / (max - min); none: x; a constant
-- attribute is 0), NULL where the value is NULL. A record's part is its pattern of NULL quasi-identifiers
-- (extended matching: NULL is a value, so records are grouped only with records NULL in the same places);
-- grp is the group MDAV assigns (NULL: not yet; -1: suppressed). With a sensitive attribute (the (k,p,q,r)
-- heuristic), s is its value as a number (a numeric column's own value, else its rank among the column's
-- distinct values: equality is all p-sensitivity needs) and rare is set by mark_rare_values.
-- context: table (new scratch table), records, rid, qis, scale ('z_score' | 'range' | 'none'), sensitive
--          (column or none), numeric_sensitive
-- columns: rid, part, grp, z0 .. z<d-1>[, s, rare] (and zv, all of them as one array, where
--          macros/vectors.sql.j2 says)
CACHE TABLE `sqlanon_0a1b2c3d_mz` AS
SELECT *
FROM (
WITH s AS (
  SELECT
    avg(CAST(`AGI` AS DOUBLE)) AS m0,
    stddev_pop(CAST(`AGI` AS DOUBLE)) AS sd0,
    min(CAST(`AGI` AS DOUBLE)) AS lo0,
    max(CAST(`AGI` AS DOUBLE)) AS hi0
  FROM `sqlanon_0a1b2c3d_mr`
)
SELECT r.`sqlanon_rid` AS rid,
       CAST(0 + CASE WHEN r.`AGI` IS NULL THEN 1 ELSE 0 END AS BIGINT) AS part,
       CAST(NULL AS BIGINT) AS grp,
       CASE WHEN s.hi0 > s.lo0 THEN (CAST(r.`AGI` AS DOUBLE) - s.lo0) / (s.hi0 - s.lo0) WHEN r.`AGI` IS NOT NULL THEN 0.0 END AS z0
FROM `sqlanon_0a1b2c3d_mr` AS r CROSS JOIN s
) AS standardized
-- bind parameters: []

-- audit_boxes: the released boxes of a cloaking release, each cloaked column c as the half-open interval
-- [c_min, c_max) (NULL/NULL where the source value is NULL). A row's box is valid when every pair has
-- c_min < c_max or both NULL.
-- context: table (parts), boxes (the cloaked column names c)
-- columns: distinct boxes, rows with an invalid box
SELECT count(*),
       coalesce(sum(CASE WHEN CASE WHEN (lo0 IS NULL AND hi0 IS NULL) OR lo0 < hi0 THEN 0 ELSE 1 END + CASE WHEN (lo1 IS NULL AND hi1 IS NULL) OR lo1 < hi1 THEN 0 ELSE 1 END > 0 THEN n ELSE 0 END), 0)
FROM (
  SELECT `lat_min` AS lo0, `lat_max` AS hi0, `we"ird; col_min` AS lo1, `we"ird; col_max` AS hi1, count(*) AS n
  FROM `analytics`.`trips_cloaked`
  GROUP BY `lat_min`, `lat_max`, `we"ird; col_min`, `we"ird; col_max`
) AS b
-- bind parameters: []

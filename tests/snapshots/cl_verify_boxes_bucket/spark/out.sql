-- verify_boxes: every distinct released box (its intervals and unchanged quasi-identifiers) of the written table
-- against the source's records inside it: how many records (and subjects) lie in it. Independent of how the
-- boxes were found: the written bounds are compared with the source's own values. In table mode the boxes are
-- disjoint and hold no suppressed record, so the records inside a box are exactly its class; in request mode
-- every source record counts (each request's box must hold k subjects).
-- With `bucket` (a cloaked dimension without NULLs whose distinct released intervals are disjoint, as request
-- mode's time windows are: count_overlaps.sql.j2 checked it), each source record is first placed in the one
-- interval of that dimension holding it, and boxes meet only the records of their interval: the same counts
-- as the plain range join, without comparing every box with every record.
-- context: output (parts), records (the source's copy), cloaked [{column, nullable}], exact, subject, k, bucket
-- columns: boxes, boxes below k (records or subjects inside), the fewest inside, boxes whose records inside
--          differ from the rows released with it
WITH boxes AS (
  SELECT `lat_min` AS lo0, `lat_max` AS hi0, `we"ird; col_min` AS lo1, `we"ird; col_max` AS hi1, count(*) AS n
  FROM `analytics`.`trips_k5`
  GROUP BY `lat_min`, `lat_max`, `we"ird; col_min`, `we"ird; col_max`),
intervals AS (
  SELECT DISTINCT lo1 AS lo, hi1 AS hi FROM boxes
),
placed AS (
  SELECT s.*, w.lo AS sqlanon_bucket
  FROM `sqlanon_0a1b2c3d_cr` AS s
  JOIN intervals AS w ON s.`we"ird; col` >= w.lo AND s.`we"ird; col` < w.hi
),
inside AS (
  SELECT b.lo0, b.hi0, b.lo1, b.hi1,          count(*) AS n, count(*) AS m
  FROM boxes AS b
  JOIN placed AS s ON s.sqlanon_bucket = b.lo1 AND
       s.`lat` >= b.lo0 AND s.`lat` < b.hi0 AND
       s.`we"ird; col` >= b.lo1 AND s.`we"ird; col` < b.hi1 AND
       TRUE
  GROUP BY b.lo0, b.hi0, b.lo1, b.hi1)
SELECT count(*),
       count(CASE WHEN coalesce(i.m, 0) < ? THEN 1 END),
       min(coalesce(i.m, 0)),
       count(CASE WHEN coalesce(i.n, 0) <> b.n THEN 1 END)
FROM boxes AS b
LEFT JOIN inside AS i ON i.lo0 IS NOT DISTINCT FROM b.lo0 AND i.hi0 IS NOT DISTINCT FROM b.hi0 AND i.lo1 IS NOT DISTINCT FROM b.lo1 AND i.hi1 IS NOT DISTINCT FROM b.hi1 AND TRUE
-- bind parameters: [5]

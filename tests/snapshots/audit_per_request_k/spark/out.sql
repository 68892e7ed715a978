-- audit_per_request_k: the guarantee of a request-mode cloaking release: per distinct released box, the source
-- records (or distinct subjects) lying inside it in every cloaked dimension c (c_min <= c < c_max; a NULL/NULL
-- pair holds the NULL values), and the fewest over the boxes. Only the box dimensions count, not the other
-- quasi-identifiers. Boxes without a NULL bound join the source by range predicates alone (a range join);
-- the few with one take the NULL rule too. A NULL subject is not counted.
-- With `bucket` (the index of a box column whose distinct intervals are disjoint, as request mode's time windows
-- are; checked on the table first), the source's records are placed in their interval of that column before
-- the range join: each box then meets only the records of its interval.
-- context: table, source (parts), boxes (cloaked column names c), subject (a source column, or none), k, bucket
-- columns: distinct boxes, fewest records (or subjects) inside a box, boxes holding fewer than k
WITH b AS (
  SELECT DISTINCT `lat_min` AS lo0, `lat_max` AS hi0, `we"ird; col_min` AS lo1, `we"ird; col_max` AS hi1
  FROM `analytics`.`trips_cloaked`
), s AS (
  SELECT `pct%col` AS who, `lat` AS v0, `we"ird; col` AS v1
  FROM `analytics`.`we"ird; col`
),
counted AS (
  SELECT b.lo0, b.hi0, b.lo1, b.hi1, count(DISTINCT s.who) AS n
  FROM b
  LEFT JOIN s ON s.v0 >= b.lo0 AND s.v0 < b.hi0 AND s.v1 >= b.lo1 AND s.v1 < b.hi1
  WHERE b.lo0 IS NOT NULL AND b.hi0 IS NOT NULL AND b.lo1 IS NOT NULL AND b.hi1 IS NOT NULL
  GROUP BY b.lo0, b.hi0, b.lo1, b.hi1
  UNION ALL
  SELECT b.lo0, b.hi0, b.lo1, b.hi1, count(DISTINCT s.who) AS n
  FROM b
  LEFT JOIN s ON ((b.lo0 IS NULL AND b.hi0 IS NULL AND s.v0 IS NULL) OR (s.v0 >= b.lo0 AND s.v0 < b.hi0)) AND ((b.lo1 IS NULL AND b.hi1 IS NULL AND s.v1 IS NULL) OR (s.v1 >= b.lo1 AND s.v1 < b.hi1))
  WHERE NOT (b.lo0 IS NOT NULL AND b.hi0 IS NOT NULL AND b.lo1 IS NOT NULL AND b.hi1 IS NOT NULL)
  GROUP BY b.lo0, b.hi0, b.lo1, b.hi1
)
SELECT count(*), min(n), coalesce(sum(CASE WHEN n < ? THEN 1 ELSE 0 END), 0)
FROM counted
-- bind parameters: [5]

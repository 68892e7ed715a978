-- write_cloaked: the released table. Each cloaked column c becomes c_min and c_max, the half-open interval of
-- its record's final cell ([c_min, c_max); NULL for a NULL value); a time column's bounds are timestamps (a
-- time column of numbers keeps numbers). Request mode's time is the record's window. Suppressed records are left
-- out, the unchanged quasi-identifiers and other released columns copied; rows in random order.
-- context: table (new), or_replace, records, rid, state (every record's final state), columns [{name, qi_index}],
--          cloaked {name: {index, d, level, window}} (d: {x0, w, integral}; level: "ls" | "lt"; window: the
--          window's size, request mode's time), timestamps (names of time columns released as timestamps)
CREATE TABLE `analytics`.`sqlanon_tmp_0123456789ab` AS
WITH placed AS (
  SELECT o.*
       , CASE WHEN s.d0 IS NOT NULL THEN (? + ((CASE WHEN s.d0 IS NULL THEN -1
      WHEN s.d0 < (? + (CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT)) * (? / power(CAST(2 AS DOUBLE), s.ls))) THEN CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT) - 1
      WHEN s.d0 >= (? + (CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT) + 1) * (? / power(CAST(2 AS DOUBLE), s.ls))) THEN CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT) + 1
      ELSE CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT) END)) * (? / power(CAST(2 AS DOUBLE), s.ls))) END AS sqlanon_lo0
       , CASE WHEN s.d0 IS NOT NULL THEN (? + ((CASE WHEN s.d0 IS NULL THEN -1
      WHEN s.d0 < (? + (CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT)) * (? / power(CAST(2 AS DOUBLE), s.ls))) THEN CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT) - 1
      WHEN s.d0 >= (? + (CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT) + 1) * (? / power(CAST(2 AS DOUBLE), s.ls))) THEN CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT) + 1
      ELSE CAST(floor((s.d0 - ?) / (? / power(CAST(2 AS DOUBLE), s.ls))) AS BIGINT) END) + 1) * (? / power(CAST(2 AS DOUBLE), s.ls))) END AS sqlanon_hi0
       , CASE WHEN s.d1 IS NOT NULL THEN floor(? + ((CASE WHEN s.d1 IS NULL THEN -1
      WHEN s.d1 < floor(? + (CAST(floor((s.d1 - ?) / ?) AS BIGINT)) * ?) THEN CAST(floor((s.d1 - ?) / ?) AS BIGINT) - 1
      WHEN s.d1 >= floor(? + (CAST(floor((s.d1 - ?) / ?) AS BIGINT) + 1) * ?) THEN CAST(floor((s.d1 - ?) / ?) AS BIGINT) + 1
      ELSE CAST(floor((s.d1 - ?) / ?) AS BIGINT) END)) * ?) END AS sqlanon_lo1
       , CASE WHEN s.d1 IS NOT NULL THEN floor(? + ((CASE WHEN s.d1 IS NULL THEN -1
      WHEN s.d1 < floor(? + (CAST(floor((s.d1 - ?) / ?) AS BIGINT)) * ?) THEN CAST(floor((s.d1 - ?) / ?) AS BIGINT) - 1
      WHEN s.d1 >= floor(? + (CAST(floor((s.d1 - ?) / ?) AS BIGINT) + 1) * ?) THEN CAST(floor((s.d1 - ?) / ?) AS BIGINT) + 1
      ELSE CAST(floor((s.d1 - ?) / ?) AS BIGINT) END) + 1) * ?) END AS sqlanon_hi1
  FROM `sqlanon_0a1b2c3d_cr` AS o
  JOIN `sqlanon_0a1b2c3d_cdone` AS s ON s.rid = o.`sqlanon_rid`
  WHERE s.st = 1
)
SELECT
  sqlanon_lo0 AS `lat_min`,
  sqlanon_hi0 AS `lat_max`,
  `pct%col`,
  timestamp_micros(CAST(sqlanon_lo1 AS BIGINT)) AS `we"ird; col_min`,
  timestamp_micros(CAST(sqlanon_hi1 AS BIGINT)) AS `we"ird; col_max`
FROM placed
ORDER BY random()
-- bind parameters: [40.4, 40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 0.6, 0.6, 40.4, 40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 40.4, 0.6, 0.6, 40.4, 0.6, 40.4, 0.6, 0.6, 1709251200000000.0, 1709251200000000.0, 1709251200000000.0, 3600000000.0, 3600000000.0, 1709251200000000.0, 3600000000.0, 1709251200000000.0, 1709251200000000.0, 3600000000.0, 3600000000.0, 1709251200000000.0, 3600000000.0, 1709251200000000.0, 3600000000.0, 3600000000.0, 1709251200000000.0, 1709251200000000.0, 1709251200000000.0, 3600000000.0, 3600000000.0, 1709251200000000.0, 3600000000.0, 1709251200000000.0, 1709251200000000.0, 3600000000.0, 3600000000.0, 1709251200000000.0, 3600000000.0, 1709251200000000.0, 3600000000.0, 3600000000.0]

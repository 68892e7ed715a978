-- count_overlaps: (cloaking, check --box) how many distinct released intervals of one column overlap the next one (in order of their low
-- end), and how many rows have a NULL bound: 0 and 0 mean every record lies in at most one of them
-- (verify_boxes.sql.j2 may then place each record in its interval first).
-- context: output (parts), column (the cloaked column: its _min and _max)
SELECT count(CASE WHEN nxt < hi THEN 1 END), (SELECT count(*) FROM `analytics`.`trips_k5` WHERE `we"ird; col_min` IS NULL)
FROM (
  SELECT lo, hi, lead(lo) OVER (ORDER BY lo, hi) AS nxt
  FROM (SELECT DISTINCT `we"ird; col_min` AS lo, `we"ird; col_max` AS hi
        FROM `analytics`.`trips_k5` WHERE `we"ird; col_min` IS NOT NULL) AS d
) AS x
-- bind parameters: []

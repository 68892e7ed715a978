-- describe_levels: the released records per (space level, time level), with per dimension the records whose
-- value is not NULL (their cell is released), and every dimension not NULL; then the suppressed records
-- (ls = -1).
-- context: state, dims
SELECT ls, lt, count(*), count(d0), count(d1),
       count(CASE WHEN d0 IS NOT NULL AND TRUE THEN 1 END)
FROM `sqlanon_0a1b2c3d_cdone`
WHERE st = 1
GROUP BY ls, lt
UNION ALL
SELECT -1, -1, count(*), 0, 0, 0 FROM `sqlanon_0a1b2c3d_cdone` WHERE st = 2
ORDER BY 1, 2
-- bind parameters: []

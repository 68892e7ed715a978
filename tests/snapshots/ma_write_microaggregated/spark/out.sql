-- write_microaggregated: the released table: every quasi-identifier replaced by its group's mean (a double;
-- rounded to `round` decimal places where given), every other released column as it is; suppressed records
-- left out; rows in random order (set_random_seed seeds it).
-- context: table (new), records (create_records), rid, groups (the standardized records), columns
--          (name, qi_index), qis (column, round), source (unused: the records are its copy)
-- columns: the released columns
CREATE TABLE `analytics`.`census_k3` AS
WITH means AS (
  SELECT z.grp, avg(CAST(r.`AGI` AS DOUBLE)) AS m0, avg(CAST(r.`we"ird; col` AS DOUBLE)) AS m1
  FROM `sqlanon_0a1b2c3d_mr` AS r JOIN `sqlanon_0a1b2c3d_mz` AS z ON z.rid = r.`sqlanon_rid`
  WHERE z.grp >= 0
  GROUP BY z.grp
)
SELECT
    r.`id`,
round(m.m1, 2) AS `we"ird; col`,
m.m0 AS `AGI`
FROM `sqlanon_0a1b2c3d_mr` AS r
JOIN `sqlanon_0a1b2c3d_mz` AS z ON z.rid = r.`sqlanon_rid`
JOIN means AS m ON m.grp = z.grp
ORDER BY random()
-- bind parameters: []

-- distribute_rare_records: p-sensitive microaggregation's end: the records left that cannot form a p-sensitive
-- group of their own each join the heuristic group of their part with the nearest centroid (ties: lower group
-- id). Adding a record never lowers a group's count of distinct values, so every group stays p-sensitive.
-- context: table (the standardized records), first_group, d
-- columns: none
UPDATE `sqlanon_0a1b2c3d_mz` SET grp = x.grp
FROM (
  SELECT rid, grp FROM (
    SELECT r.rid, c.grp, row_number() OVER (PARTITION BY r.rid ORDER BY ((coalesce(r.z0, 0) - coalesce(c.c0, 0)) * (coalesce(r.z0, 0) - coalesce(c.c0, 0)) + (coalesce(r.z1, 0) - coalesce(c.c1, 0)) * (coalesce(r.z1, 0) - coalesce(c.c1, 0))), c.grp) AS rn
    FROM `sqlanon_0a1b2c3d_mz` AS r
    JOIN (SELECT grp, part, avg(coalesce(z0, 0)) AS c0, avg(coalesce(z1, 0)) AS c1
          FROM `sqlanon_0a1b2c3d_mz` WHERE grp >= ? GROUP BY grp, part) AS c ON c.part = r.part
    WHERE r.grp IS NULL AND r.rare
  ) AS ranked
  WHERE rn = 1
) AS x
WHERE `sqlanon_0a1b2c3d_mz`.rid = x.rid
-- bind parameters: [1125899906842624]

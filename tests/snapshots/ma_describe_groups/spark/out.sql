-- describe_groups: how many groups MDAV formed and their smallest and largest sizes (suppressed records, grp
-- -1, are no group).
-- context: table (the standardized records)
-- columns: groups, smallest, largest, grouped records
SELECT count(*), min(n), max(n), coalesce(sum(n), 0)
FROM (SELECT grp, count(*) AS n FROM `sqlanon_0a1b2c3d_mz` WHERE grp >= 0 GROUP BY grp) AS g
-- bind parameters: []

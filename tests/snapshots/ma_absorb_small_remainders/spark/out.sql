-- absorb_small_remainders: after the (k,p,q,r) heuristic, a part (pattern of NULL quasi-identifiers) may have
-- fewer than k records left for MDAV; they join the part's last heuristic group, which already meets k.
-- context: table (the standardized records), k, first_group (the heuristic's first group id)
-- columns: none
UPDATE `sqlanon_0a1b2c3d_mz` SET grp = (
  SELECT max(g.grp) FROM `sqlanon_0a1b2c3d_mz` AS g
  WHERE g.part = `sqlanon_0a1b2c3d_mz`.part AND g.grp >= ?
)
WHERE grp IS NULL
  AND part IN (SELECT part FROM `sqlanon_0a1b2c3d_mz` WHERE grp IS NULL GROUP BY part HAVING count(*) < ?)
-- bind parameters: [1125899906842624, 5]

-- suppress_small_parts: records whose pattern of NULL quasi-identifiers fewer than k records share cannot be
-- grouped (a group releases one value per attribute, NULL included): they are suppressed (grp = -1).
-- context: table (the standardized records), k
-- columns: suppressed records
UPDATE `sqlanon_0a1b2c3d_mz` SET grp = -1
WHERE part IN (SELECT part FROM `sqlanon_0a1b2c3d_mz` GROUP BY part HAVING count(*) < ?)
-- bind parameters: [5]

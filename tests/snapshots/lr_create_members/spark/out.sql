-- create_members: which class each distinct combination of values (its level-0 codes) is in; merges update it.
-- context: table (new), classes (create_classes), attrs
-- columns: f{i} (level-0 code of quasi-identifier i), size (its records), cid (its class; NULL once suppressed)
CACHE TABLE `sqlanon_0a1b2c3d_lrmem` AS
SELECT p0_0 AS f0, p1_0 AS f1, size, cid
FROM `sqlanon_0a1b2c3d_lrc`
-- bind parameters: []

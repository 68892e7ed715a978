-- create_hierarchy_rows: the hierarchy rows of the values the data holds, every class in one table (levels padded
-- with NULL up to the tallest class): what create_dgh.sql.j2 and create_leaves.sql.j2 read.
-- context: table (new), classes [{cls, coded, distinct (the class values table), name, height}], max_height
-- columns: cls, value, l0 .. l{max_height-1}
CACHE TABLE `sqlanon_0a1b2c3d_rhr` AS
SELECT 0 AS cls, h.value, h.`l0` AS l0, h.`l1` AS l1, h.`l2` AS l2, CAST(NULL AS STRING) AS l3
FROM `sqlanon_0a1b2c3d_c0` AS h
WHERE (h.value IS NULL AND EXISTS (SELECT 1 FROM `sqlanon_0a1b2c3d_rv0` AS v WHERE v.`nation` IS NULL))
   OR h.value IN (SELECT CAST(v.`nation` AS STRING) FROM `sqlanon_0a1b2c3d_rv0` AS v)
UNION ALL
SELECT 1 AS cls, h.value, h.`l0` AS l0, h.`l1` AS l1, h.`l2` AS l2, h.`l3` AS l3
FROM `sqlanon_0a1b2c3d_c1` AS h
WHERE (h.value IS NULL AND EXISTS (SELECT 1 FROM `sqlanon_0a1b2c3d_rv1` AS v WHERE v.`we"ird; col` IS NULL))
   OR h.value IN (SELECT CAST(v.`we"ird; col` AS STRING) FROM `sqlanon_0a1b2c3d_rv1` AS v)
UNION ALL
SELECT 2 AS cls, h.value, h.`l0` AS l0, h.`l1` AS l1, CAST(NULL AS STRING) AS l2, CAST(NULL AS STRING) AS l3
FROM `sqlanon_0a1b2c3d_c2` AS h
WHERE (h.value IS NULL AND EXISTS (SELECT 1 FROM `sqlanon_0a1b2c3d_rv2` AS v WHERE v.`pct%col` IS NULL))
   OR h.value IN (SELECT CAST(v.`pct%col` AS STRING) FROM `sqlanon_0a1b2c3d_rv2` AS v)
-- bind parameters: []

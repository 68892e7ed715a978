-- create_paths: every record's root-to-leaf paths of value nodes, from the chains: a chain row's class values
-- mapped to their level-0 DGH nodes, cut to its `len` present slots. Duplicates and proper prefixes are removed
-- by project_paths.sql.j2, which reads this table.
-- context: table (new), leaves (create_leaves.sql.j2), chains [{table, classes [cls in path order]}]
-- columns: rid, path (INTEGER[])
CACHE TABLE `sqlanon_0a1b2c3d_rraw` AS
SELECT c.rid, slice(array(v0.id, v1.id, v2.id), 1, c.len) AS path
FROM `sqlanon_0a1b2c3d_rch0` AS c
LEFT JOIN `sqlanon_0a1b2c3d_rlv` AS v0 ON v0.cls = 0
  AND v0.value IS NOT DISTINCT FROM CAST(c.x0 AS STRING)
LEFT JOIN `sqlanon_0a1b2c3d_rlv` AS v1 ON v1.cls = 1
  AND v1.value IS NOT DISTINCT FROM CAST(c.x1 AS STRING)
LEFT JOIN `sqlanon_0a1b2c3d_rlv` AS v2 ON v2.cls = 2
  AND v2.value IS NOT DISTINCT FROM CAST(c.x2 AS STRING)
WHERE c.len > 0
UNION ALL
SELECT c.rid, slice(array(v0.id, v1.id), 1, c.len) AS path
FROM `sqlanon_0a1b2c3d_rch1` AS c
LEFT JOIN `sqlanon_0a1b2c3d_rlv` AS v0 ON v0.cls = 0
  AND v0.value IS NOT DISTINCT FROM CAST(c.x0 AS STRING)
LEFT JOIN `sqlanon_0a1b2c3d_rlv` AS v1 ON v1.cls = 3
  AND v1.value IS NOT DISTINCT FROM CAST(c.x3 AS STRING)
WHERE c.len > 0
-- bind parameters: []

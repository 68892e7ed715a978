-- create_dgh: the nodes of every class's generalization hierarchy (the paper's DGH) that the data's values reach:
-- id, class, level (0 = the values, height - 1 = the class's top, '*'), label, parent id (0, the root `*` of
-- all classes, above a class's top) and width (|C(u)|: the nodes of the class at that level). Ids follow the
-- class first, so an item of a lower class always has the lower id; then level from the top and label bytes.
-- context: table (new), rows (create_hierarchy_rows.sql.j2), classes [{cls, height}]
-- columns: id, cls, lvl, label, parent, width
CACHE TABLE `sqlanon_0a1b2c3d_rdgh` AS
WITH labelled AS (
  SELECT DISTINCT cls, 0 AS lvl, l0 AS label, l1 AS parent_label
  FROM `sqlanon_0a1b2c3d_rhr` WHERE cls = 0
  UNION ALL
  SELECT DISTINCT cls, 1 AS lvl, l1 AS label, l2 AS parent_label
  FROM `sqlanon_0a1b2c3d_rhr` WHERE cls = 0
  UNION ALL
  SELECT DISTINCT cls, 2 AS lvl, l2 AS label, CAST(NULL AS STRING) AS parent_label
  FROM `sqlanon_0a1b2c3d_rhr` WHERE cls = 0
  UNION ALL
  SELECT DISTINCT cls, 0 AS lvl, l0 AS label, l1 AS parent_label
  FROM `sqlanon_0a1b2c3d_rhr` WHERE cls = 1
  UNION ALL
  SELECT DISTINCT cls, 1 AS lvl, l1 AS label, l2 AS parent_label
  FROM `sqlanon_0a1b2c3d_rhr` WHERE cls = 1
  UNION ALL
  SELECT DISTINCT cls, 2 AS lvl, l2 AS label, l3 AS parent_label
  FROM `sqlanon_0a1b2c3d_rhr` WHERE cls = 1
  UNION ALL
  SELECT DISTINCT cls, 3 AS lvl, l3 AS label, CAST(NULL AS STRING) AS parent_label
  FROM `sqlanon_0a1b2c3d_rhr` WHERE cls = 1
  UNION ALL
  SELECT DISTINCT cls, 0 AS lvl, l0 AS label, l1 AS parent_label
  FROM `sqlanon_0a1b2c3d_rhr` WHERE cls = 2
  UNION ALL
  SELECT DISTINCT cls, 1 AS lvl, l1 AS label, CAST(NULL AS STRING) AS parent_label
  FROM `sqlanon_0a1b2c3d_rhr` WHERE cls = 2
), numbered AS (
  SELECT CAST(row_number() OVER (ORDER BY cls, lvl DESC, label ASC NULLS LAST, parent_label ASC NULLS LAST) AS INTEGER) AS id,
         cls, lvl, label, parent_label
  FROM labelled
)
SELECT n.id, n.cls, n.lvl, n.label, CAST(coalesce(p.id, 0) AS INTEGER) AS parent,
       CAST(count(*) OVER (PARTITION BY n.cls, n.lvl) AS INTEGER) AS width
FROM numbered AS n
LEFT JOIN numbered AS p
  ON p.cls = n.cls AND p.lvl = n.lvl + 1 AND p.label IS NOT DISTINCT FROM n.parent_label
-- bind parameters: []

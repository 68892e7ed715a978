-- create_coded_table: Spark's form of sql/common/create_coded_table.sql.j2: an empty scratch view of the same
-- columns (Spark has no temporary tables; the adapter appends the rows: SparkAdapter.bulk_insert).
-- context: table, height, parts (optional)
CACHE TABLE `sqlanon_0a1b2c3d_c0` AS
SELECT
  CAST(NULL AS STRING) AS value,
  CAST(NULL AS STRING) AS match_key,
  CAST(NULL AS STRING) AS `l0`,
  CAST(NULL AS INT) AS `g0`,
  CAST(NULL AS INT) AS `w0`,
  CAST(NULL AS STRING) AS `l1`,
  CAST(NULL AS INT) AS `g1`,
  CAST(NULL AS INT) AS `w1`,
  CAST(NULL AS STRING) AS `l2`,
  CAST(NULL AS INT) AS `g2`,
  CAST(NULL AS INT) AS `w2`
WHERE false
-- bind parameters: []

-- create_lookup_table: Spark's form of sql/common/create_lookup_table.sql.j2: an empty scratch view of the same
-- columns (Spark has no temporary tables; rows are appended by the adapter: SparkAdapter.bulk_insert).
-- context: table, height
CACHE TABLE `sqlanon_0a1b2c3d_h0` AS
SELECT CAST(NULL AS STRING) AS value, CAST(NULL AS STRING) AS `l0`, CAST(NULL AS STRING) AS `l1`, CAST(NULL AS STRING) AS `l2`
WHERE false
-- bind parameters: []

-- audit_column_types: Spark's form of sql/common/audit_column_types.sql.j2, with typeof (int, bigint, double,
-- decimal(p,s), string, ...: the names measures.numeric_kind reads). A map type is named 'map' alone
-- (SparkAdapter.UNGROUPABLE_TYPES: GROUP BY takes no maps).
-- context: table (parts), columns
-- columns: one type name per column, in order
SELECT CASE WHEN typeof(s.`diagnosis`) LIKE 'map<%' THEN 'map' ELSE typeof(s.`diagnosis`) END, CASE WHEN typeof(s.`we"ird; col`) LIKE 'map<%' THEN 'map' ELSE typeof(s.`we"ird; col`) END, CASE WHEN typeof(s.`pct%col`) LIKE 'map<%' THEN 'map' ELSE typeof(s.`pct%col`) END
FROM (SELECT 1 AS one) AS d
LEFT JOIN (SELECT `diagnosis`, `we"ird; col`, `pct%col` FROM `analytics`.`we"ird; col` LIMIT 1) AS s ON TRUE
-- bind parameters: []

-- copy_table_hierarchy: copy a hierarchy kept as a database table (first column = leaf, then one column per level).
-- context: lookup, source (qualified name parts), columns (source column names in order)
-- returns: nothing
INSERT INTO `sqlanon_0a1b2c3d_h2`
SELECT CAST(`leaf` AS STRING), CAST(`leaf` AS STRING), CAST(`we"ird; col` AS STRING), CAST(`top` AS STRING)
FROM `reference`.`zip_hierarchy`
-- bind parameters: []

-- drop_table: remove a table if it exists.
-- context: table (parts)
DROP TABLE IF EXISTS `analytics`.`we"ird; col`
-- bind parameters: []

-- rename_table: give the finished output table its final name (same schema).
-- context: table (parts), new_name
ALTER TABLE `analytics`.`sqlanon_tmp_0123456789ab` RENAME TO `we"ird; col`
-- bind parameters: []

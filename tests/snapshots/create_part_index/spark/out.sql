-- create_part_index: an index on the code table's part (project_frequency_set.sql.j2), by which a sliced check
-- reads one part at a time (evaluate_node_sliced.sql.j2); the rows are stored in part order.
-- context: table, index (name of the new index)
CREATE INDEX `we"ird; col_part` ON `we"ird; col` (part)
-- bind parameters: []

-- analyze_table: collect planner statistics (row count, and those of the given columns) of a work table
-- sqlanon has just filled.
-- context: table, columns
ANALYZE "sqlanon_0a1b2c3d_c0" ("match_key", "we""ird; col")
-- bind parameters: []

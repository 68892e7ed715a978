-- count_table: number of rows of a table.
-- context: table (parts)
-- columns: count
SELECT count(*) FROM `sqlanon_0a1b2c3d_d0`
-- bind parameters: []

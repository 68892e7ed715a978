-- sample_table: the first rows of a table (the demo prints a few anonymized rows).
-- context: table (parts), limit
-- columns: every column of the table
SELECT * FROM `patients_k5` LIMIT ?
-- bind parameters: [5]

-- create_part_ranges: where each part of the code table lies, for sliced checks that read a part by its range of
-- row positions (a TID range scan) instead of through an index on the part (create_part_index.sql.j2).
-- project_frequency_set.sql.j2 wrote the rows of this new temporary table in part order and nothing moves
-- them, so a part's rows are those from its first position to its last. PostgreSQL 14 and later
-- (NodeQueryTuning.reads_part_ranges). A part without rows has no row here: its range is empty.
-- context: table (new temp table), source (the code table)
-- columns: part, lo (first row position), hi (last)
CACHE TABLE `we"ird; col_ranges` AS
SELECT part, min(ctid) AS lo, max(ctid) AS hi
FROM `we"ird; col`
GROUP BY part
-- bind parameters: []

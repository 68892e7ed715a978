-- label_sequences: the distinct label sequences of a raw hierarchy from level 1 up, with the rows carrying each
-- that have a value: one pass over every row that survey_hierarchy.sql.j2 and encode_hierarchy.sql.j2 (unique)
-- both read, where each grouped every row itself, and describe_hierarchy.sql.j2 too (CUP's 100,001-row ZIP
-- hierarchy: 10,001 sequences).
-- context: table (new temp table), lookup, height (at least 2)
-- columns: l1 .. l{height-1}, c (rows with a value: count(value)), n (rows)
CACHE TABLE `we"ird; col` AS
SELECT `l1`, `l2`, `l3`, count(value) AS c, count(*) AS n
FROM `sqlanon_0a1b2c3d_h0`
GROUP BY `l1`, `l2`, `l3`
-- bind parameters: []

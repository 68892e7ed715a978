-- write_kinds: the anonymized table under a temporary name, from the released rows' kinds (release_kinds):
-- each kind repeated n times, in the kinds' stored order (shuffled by content and salt), so the order says
-- nothing of the source's, and the same salt (output.seed) gives the same table, row order included.
-- context: table (new table parts), or_replace (bool: output/writer.py), kinds (scratch table),
--          columns [{name, qi_index or none}]
CREATE TABLE `analytics`.`sqlanon_tmp_0123456789ab` AS
SELECT
  q0 AS `age`,
  o1 AS `diagnosis`,
  q1 AS `we"ird; col`
FROM (SELECT kinds.*, explode(sequence(1, kinds.n)) AS repeat_index FROM `sqlanon_0a1b2c3d_kinds` AS kinds) AS repeated
-- bind parameters: []

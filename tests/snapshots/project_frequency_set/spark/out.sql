-- project_frequency_set: the frequency set's counts and codes alone, for the k-anonymity node queries on
-- engines that store rows whole (CODE_TABLE): they never read the Loss weights, which are most of a row; the
-- sensitive value codes too, for the privacy models' queries of nodes without the Loss weights.
-- With a slicing (sqlanon/evaluation/slicing.py) each row also gets its part, 1 to `parts`: the slices (the
-- combinations of the slicing levels' codes) are dealt out by their rows, largest first, so that parts hold
-- about as many rows each, and the rows are stored in part order for the index on it (create_part_index).
-- context: table (new temp table), source (the frequency set or its code table), heights (per QI), slicing ([{qi, level, radix}],
--          may be empty), parts, sensitive (how many sensitive value codes the frequency set has)
-- columns: cnt, q{i}_{j}, in the frequency set's order (level by level, see build_frequency_set.sql.j2), then
--          s{j} (per sensitive attribute), then part (with a slicing)
CACHE TABLE `sqlanon_0a1b2c3d_fsc` AS
SELECT f.cnt
     , f.q0_0
     , f.q1_0
     , f.q2_0
     , f.q0_1
     , f.q2_1
     , f.q0_2
     , f.q2_2
     , f.q2_3
     , f.s0
     , f.s1
FROM `sqlanon_0a1b2c3d_fs` AS f
-- bind parameters: []

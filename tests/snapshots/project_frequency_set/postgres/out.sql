-- project_frequency_set: the frequency set's counts and codes alone, for the k-anonymity node queries on
-- engines that store rows whole (CODE_TABLE): they never read the Loss weights, which are most of a row.
-- context: table (new temp table), source (the frequency set), heights (per QI)
-- columns: cnt, q{i}_{j}, in the frequency set's order (level by level, see build_frequency_set.sql.j2)
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_fsc" AS
SELECT cnt
     , q0_0
     , q1_0
     , q2_0
     , q0_1
     , q2_1
     , q0_2
     , q2_2
     , q2_3
FROM "sqlanon_0a1b2c3d_fs"
-- bind parameters: []

-- roll_up_codes: a code table aggregated with some QIs at a higher level (sqlanon/evaluation/rollup.py): the
-- counts summed over the codes below those levels, whose columns are left out.
-- context: table (new temp table), source (a code table: cnt, q{i}_{j}), heights (per QI), levels (per QI, the
--          lowest level kept)
-- columns: cnt, then the kept q{i}_{j} in the code table's order (level by level)
CACHE TABLE `sqlanon_0a1b2c3d_fsr2` AS
SELECT CAST(sum(cnt) AS BIGINT) AS cnt, q1_0, q0_1, q1_1, q2_1, q0_2, q2_2, q2_3
FROM `we"ird; col`
GROUP BY q1_0, q0_1, q1_1, q2_1, q0_2, q2_2, q2_3
-- bind parameters: []

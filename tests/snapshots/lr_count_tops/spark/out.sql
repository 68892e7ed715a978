-- count_tops: per quasi-identifier, the distinct top-level codes in the frequency set.
-- context: fset, attrs
SELECT count(DISTINCT q0_2), count(DISTINCT q1_1)
FROM `sqlanon_0a1b2c3d_fs`
-- bind parameters: []

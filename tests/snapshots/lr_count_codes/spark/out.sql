-- count_codes: per quasi-identifier and level, the distinct ancestors of the classes (how finely that level
-- splits them: the blocking schedule raises the most splitting one first).
-- context: classes, attrs
SELECT count(DISTINCT p0_0), count(DISTINCT p0_1), count(DISTINCT p0_2), count(DISTINCT p1_0), count(DISTINCT p1_1)
FROM `sqlanon_0a1b2c3d_lrc`
-- bind parameters: []

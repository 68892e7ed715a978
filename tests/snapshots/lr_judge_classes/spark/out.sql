-- judge_classes: the classes with their sensitive values, in the shape of a frequency set with one
-- quasi-identifier (the class id, q0_0), for find_failing_classes.sql.j2 to judge every privacy model on them
-- exactly as the generalization's node queries do. Suppressed members (no class) are left out.
-- context: table (new), fset (with s{j} columns), members, attrs, sensitive (how many s{j} columns)
-- columns: q0_0, s{j}, cnt
CACHE TABLE `sqlanon_0a1b2c3d_lrj` AS
SELECT m.cid AS q0_0, f.s0, f.s1, CAST(sum(f.cnt) AS BIGINT) AS cnt
FROM `sqlanon_0a1b2c3d_fs` AS f
JOIN `sqlanon_0a1b2c3d_lrmem` AS m ON m.f0 = f.q0_0 AND m.f1 = f.q1_0
WHERE m.cid IS NOT NULL
GROUP BY m.cid, f.s0, f.s1
-- bind parameters: []

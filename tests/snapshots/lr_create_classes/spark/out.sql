-- create_classes: KACA's first equivalence classes, one per distinct combination of quasi-identifier values in
-- the frequency set, each its own representative at level 0 with the codes of all its ancestors. Class ids
-- follow the codes (labels in byte order, NULL last), so ties between equal distances fall the same way on
-- every engine.
-- context: table (new), fset (the frequency set: cnt, q{i}_{j}), attrs [{height, cum}]
-- columns: cid, size, lv{i}, p{i}_{j}, d
CACHE TABLE `sqlanon_0a1b2c3d_lrc` AS
SELECT CAST(row_number() OVER (ORDER BY q0_0, q1_0) AS BIGINT) AS cid,
       size, 0 AS lv0, q0_0 AS p0_0, q0_1 AS p0_1, q0_2 AS p0_2, 0 AS lv1, q1_0 AS p1_0, q1_1 AS p1_1, CAST(0 AS BIGINT) AS d
FROM (
  SELECT q0_0, q0_1, q0_2, q1_0, q1_1, CAST(sum(cnt) AS BIGINT) AS size
  FROM `sqlanon_0a1b2c3d_fs`
  GROUP BY q0_0, q0_1, q0_2, q1_0, q1_1
) AS f
-- bind parameters: []

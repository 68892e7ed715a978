-- measure: the records, those suppressed, the scaled WHD of the kept records (sum of their classes' d), and per
-- quasi-identifier the kept records whose released label differs from their value (the modification rate's
-- cells; a label equal to the value, as a hierarchy may repeat a value at level 1, is no modification).
-- context: members, classes, qis [{coded, height}]
SELECT CAST(sum(m.size) AS BIGINT),
       CAST(coalesce(sum(CASE WHEN k.cid IS NULL THEN m.size END), 0) AS BIGINT),
       CAST(coalesce(sum(m.size * k.d), 0) AS BIGINT)
     , CAST(coalesce(sum(CASE WHEN k.cid IS NOT NULL AND (CASE k.lv0 WHEN 0 THEN h0.`l0` WHEN 1 THEN h0.`l1` WHEN 2 THEN h0.`l2` END) IS DISTINCT FROM h0.value THEN m.size END), 0) AS BIGINT)
     , CAST(coalesce(sum(CASE WHEN k.cid IS NOT NULL AND (CASE k.lv1 WHEN 0 THEN h1.`l0` WHEN 1 THEN h1.`l1` END) IS DISTINCT FROM h1.value THEN m.size END), 0) AS BIGINT)
FROM `sqlanon_0a1b2c3d_lrmem` AS m
LEFT JOIN `sqlanon_0a1b2c3d_lrc` AS k ON k.cid = m.cid
JOIN (SELECT DISTINCT g0, value, `l0`, `l1`, `l2` FROM `sqlanon_0a1b2c3d_c0`) AS h0 ON h0.g0 = m.f0
JOIN (SELECT DISTINCT g0, value, `l0`, `l1` FROM `sqlanon_0a1b2c3d_c1`) AS h1 ON h1.g0 = m.f1
-- bind parameters: []

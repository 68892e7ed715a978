-- create_state: each record's place in the cloaking: its root (the combination of the quasi-identifiers
-- released unchanged: each is cloaked apart), its cloaked values as numbers (d{i}; time in microseconds), its
-- subject, its levels in space (ls) and time (lt), and its state st (0: its box may still split, 1: final,
-- 2: suppressed).
-- context: table (new), records (create_records), rid, dims [{column, time}], exact (columns), subject (or None)
-- columns: rid, r, d0.., subj, wi, ls, lt, st
CACHE TABLE `sqlanon_0a1b2c3d_cs0` AS
SELECT `sqlanon_rid` AS rid,
dense_rank() OVER (ORDER BY `pct%col`) AS r,
CAST(`lat` AS DOUBLE) AS d0,
CAST(unix_micros(CAST(`we"ird; col` AS TIMESTAMP)) AS DOUBLE) AS d1,
`usr` AS subj,
       CAST(0 AS BIGINT) AS wi, 0 AS ls, 0 AS lt, 0 AS st
FROM `sqlanon_0a1b2c3d_cr`
-- bind parameters: []

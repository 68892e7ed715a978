-- count_outside: per cloaked dimension, the values outside the region [x0, x0 + w).
-- context: state, dims [{x0, w}]
SELECT count(CASE WHEN d0 < ? OR d0 >= ? + ? THEN 1 END), count(CASE WHEN d1 < ? OR d1 >= ? + ? THEN 1 END)
FROM `sqlanon_0a1b2c3d_cs0`
-- bind parameters: [40.4, 40.4, 0.6, 1709251200000000.0, 1709251200000000.0, 2592000000000.0]

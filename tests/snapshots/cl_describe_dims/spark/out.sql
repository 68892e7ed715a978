-- describe_dims: per cloaked dimension, the smallest and largest value and the NULL count.
-- context: state, dims
SELECT min(d0), max(d0), count(*) - count(d0), min(d1), max(d1), count(*) - count(d1)
FROM `sqlanon_0a1b2c3d_cs0`
-- bind parameters: []

-- count_state: the records still open after a round, and those it suppressed.
-- context: state
SELECT count(CASE WHEN st = 0 THEN 1 END), count(CASE WHEN st = 2 THEN 1 END) FROM `sqlanon_0a1b2c3d_cs1`
-- bind parameters: []

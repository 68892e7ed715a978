-- move_final: the records whose box is final (or suppressed) this round, kept apart from the open ones.
-- context: done, state
INSERT INTO `sqlanon_0a1b2c3d_cdone` SELECT * FROM `sqlanon_0a1b2c3d_cs1` WHERE st > 0
-- bind parameters: []

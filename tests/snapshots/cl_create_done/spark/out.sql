-- create_done: the records whose state is settled (suppressed with their root, to begin with); rounds add the
-- rest (move_final.sql.j2).
-- context: table (new), state
CACHE TABLE `sqlanon_0a1b2c3d_cdone` AS SELECT * FROM `sqlanon_0a1b2c3d_cs0` WHERE st > 0
-- bind parameters: []

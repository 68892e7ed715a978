-- small_classes: the ids of the classes below k, in id order (one-at-a-time KACA's random choice draws one).
-- context: classes, k, failing (find_failing_classes.sql.j2's table of the classes failing a privacy model
--          or k, or none: k alone)
SELECT cid FROM `sqlanon_0a1b2c3d_lrc` WHERE cid IN (SELECT k0 FROM `sqlanon_0a1b2c3d_lrf1`) ORDER BY cid
-- bind parameters: []

-- drop_suppressed: the classes suppress_outliers.sql.j2 emptied leave the class table.
-- context: classes, members
DELETE FROM `sqlanon_0a1b2c3d_lrc` WHERE cid NOT IN (SELECT cid FROM `sqlanon_0a1b2c3d_lrmem` WHERE cid IS NOT NULL)
-- bind parameters: []

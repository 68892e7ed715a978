-- count_small: the classes below k, their records, all classes, and the least small class (by size, then id):
-- the one that one-at-a-time KACA merges next in its deterministic mode.
-- context: classes, k, failing (find_failing_classes.sql.j2's table of the classes failing a privacy model
--          or k, or none: k alone)
SELECT count(*), coalesce(sum(size), 0),
       (SELECT count(*) FROM `sqlanon_0a1b2c3d_lrc`),
       (SELECT cid FROM `sqlanon_0a1b2c3d_lrc` WHERE size < ? ORDER BY size, cid LIMIT 1)
FROM `sqlanon_0a1b2c3d_lrc` WHERE size < ?
-- bind parameters: [5, 5]

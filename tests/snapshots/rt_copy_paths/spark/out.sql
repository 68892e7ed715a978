-- copy_paths: every record's paths in a table of distinct trees (the best cut's, kept while the search goes on).
-- context: table (new), paths (rid: the tree), members (rid, tid; none: the paths are the records' own)
-- columns: rid, path
CACHE TABLE `sqlanon_0a1b2c3d_rbest` AS
SELECT m.rid, p.path FROM `sqlanon_0a1b2c3d_rmembers` AS m JOIN `sqlanon_0a1b2c3d_rtrees0` AS p ON p.rid = m.tid
-- bind parameters: []

-- copy_paths: every record's paths in a table of distinct trees (the best cut's, kept while the search goes on).
-- context: table (new), paths (rid: the tree), members (rid, tid; none: the paths are the records' own)
-- columns: rid, path
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rbest" AS
SELECT rid, path FROM "sqlanon_0a1b2c3d_rpc"
-- bind parameters: []

-- group_trees: records with the same tree under a cut, as one tree and its weight (the records it stands for):
-- the structure check, disassociation and the losses work on the distinct trees, counting weights, which at the
-- coarse cuts a search starts from are far fewer than the records. `what` picks the statement:
-- members (rid, tid: records numbered by their tree's paths), trees (tid as rid, path), weights (tid as rid,
-- weight).
-- context: table (new), what, paths (with members: per record), members (with trees and weights)
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rweights" AS
SELECT tid AS rid, count(*) AS weight FROM "sqlanon_0a1b2c3d_rmembers" GROUP BY tid
-- bind parameters: []

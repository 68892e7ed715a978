-- select_holders: the trees holding the relation a ~> b (a disassociation rewrites only those).
-- context: table (new), relations, a, b
-- columns: rid
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rholders" AS
SELECT DISTINCT rid FROM "sqlanon_0a1b2c3d_rrel" WHERE a = ? AND b = ?
-- bind parameters: [4, 17]

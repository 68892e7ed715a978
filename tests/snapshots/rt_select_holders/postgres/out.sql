-- select_holders: the trees holding one of a round's relations a ~> b (its disassociations rewrite only those).
-- With `items` (create_tree_labels.sql.j2's with path_bits) instead of `relations`, a tree holds a ~> b when
-- the paths its labels a and b are on intersect.
-- context: table (new), relations or items, rules (list of (a, b) node ids)
-- columns: rid
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rholders" AS
SELECT DISTINCT ad.rid
FROM "sqlanon_0a1b2c3d_rrel" AS ad
JOIN (VALUES (CAST(%s AS INTEGER), CAST(%s AS INTEGER)), (CAST(%s AS INTEGER), CAST(%s AS INTEGER))) AS r (a, b)
  ON ad.a = r.a AND ad.b = r.b
-- bind parameters: [4, 17, 4, 21]

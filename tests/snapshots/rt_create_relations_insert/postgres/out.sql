-- create_relations: each record's ancestor-descendant relations a ~> b between its labels (b anywhere below a
-- on a path). Classes increase down a path and ids follow classes, so a < b.
-- context: table (new, or existing with insert), paths, insert (add the rows to `table`)
-- columns: rid, a, b
INSERT INTO "sqlanon_0a1b2c3d_radded"
SELECT DISTINCT p.rid, u1.a, u2.b
FROM "sqlanon_0a1b2c3d_rmerged" AS p
CROSS JOIN LATERAL unnest(p.path) WITH ORDINALITY AS u1(a, i)
CROSS JOIN LATERAL unnest(p.path) WITH ORDINALITY AS u2(b, j)
WHERE u1.i < u2.j
-- bind parameters: []

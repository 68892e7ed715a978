-- rpd_bound: a lower bound on the RPD (Eq. 1-3) of every cut a search can reach from a cut by specializing its open
-- nodes (``search.py``). A record's RPD is the mean of 1 / prod(d(u) * |C(u)|) over its leaf paths. Every leaf
-- path of a cut below (its disassociations included) keeps some of the nodes of one of the record's source paths,
-- each at a depth no greater than the source's position and with a |C(u)| no greater than the widest level its
-- cut node can still reach (an open node: the widest level at or below it; a closed node or a value: its own).
-- So b(s) = 1 / prod(position * that width) bounds the RPD of the leaf paths that come from source path s, and
-- their mean, a record's RPD, is at least min over s of b(s).
-- With `leaves` (the cuts below need no disassociation: OnlyCutSearch), a record's leaf paths are its source
-- paths projected, less those that became a proper prefix of another: each leaf comes from a set of source paths
-- of its own length, disjoint from the other leaves' sets, and is at least every b(s) of its set. A source path
-- of the record's greatest length is a prefix of nothing, so the leaf of the deepest path with the largest
-- b(s*) is at least b(s*), and each of the L - 1 other leaves at least the b of a path of its own: the record's
-- RPD is at least min over L of (b(s*) + the L - 1 smallest b of its other paths) / L, which is at least the
-- smallest b and often far above it (a record whose paths are not all equally general).
-- With `lifted` as well (the cuts below may have disassociations, and no record has paths of two lengths), the
-- leaves of a record's tree are of two kinds. A path's last node is of a class that only ever comes last on the
-- record's paths, so it never gets a child: the leaf that holds it stays a leaf, one for each source path (paths
-- may share it), at least the b of each of its paths, and the bound above holds for these leaves. The other leaves
-- end at a node lifted by a disassociation (or left without children by one); each keeps some nodes of a source
-- path without its last one, so it is at least c(s) = 1 / prod(position * width) over s less its last node,
-- which is b(s) times the last node's factor. A mean over both kinds is at least the smaller of the two bounds:
-- a record's RPD is at least min(that bound, min over s of c(s)) (docs/related_tables.md, "Bounded subtrees").
-- context: paths (the forest's source paths: rid, path of value nodes), map (the cut's, create_cut_map.sql.j2),
--          dgh, depth, open [(node id, the widest level's width)]: the cut's nodes that may still be specialized,
--          leaves (optional: the bound of cuts without disassociations), lifted (optional, with leaves: of cuts
--          with disassociations, where every record's paths are equally long)
-- returns: the sum of the records' bounds
WITH factor AS (
  SELECT m.leaf,
         CASE WHEN m.gen = %s THEN %s ELSE d.width END AS width
  FROM "sqlanon_0a1b2c3d_rmap" AS m JOIN "sqlanon_0a1b2c3d_rdgh" AS d ON d.id = m.gen
), per_path AS (
  SELECT p.rid, cardinality(p.path) AS len, coalesce(ln(CAST(1 * f1.width AS DOUBLE PRECISION)), 0) + coalesce(ln(CAST(2 * f2.width AS DOUBLE PRECISION)), 0) + coalesce(ln(CAST(3 * f3.width AS DOUBLE PRECISION)), 0) AS logs,
         0 + CASE WHEN cardinality(p.path) > 1 THEN coalesce(ln(CAST(1 * f1.width AS DOUBLE PRECISION)), 0) ELSE 0 END + CASE WHEN cardinality(p.path) > 2 THEN coalesce(ln(CAST(2 * f2.width AS DOUBLE PRECISION)), 0) ELSE 0 END AS inner_logs
  FROM "sqlanon_0a1b2c3d_rp0" AS p
  LEFT JOIN factor AS f1 ON f1.leaf = p.path[1]
  LEFT JOIN factor AS f2 ON f2.leaf = p.path[2]
  LEFT JOIN factor AS f3 ON f3.leaf = p.path[3]
), ranked AS (
  -- pick 1: the record's anchor s*, a deepest path with the largest b (the smallest logs)
  SELECT rid, exp(-logs) AS b, CASE WHEN len > 1 THEN exp(-inner_logs) END AS c,
         row_number() OVER (PARTITION BY rid ORDER BY len DESC, logs) AS pick
  FROM per_path
), running AS (
  -- the anchor first, then the other paths, smallest b first: the j-th row's total is b(s*) plus the j - 1
  -- smallest other b. Windows, not joins: PostgreSQL estimated these derived rows in the trillions, and a join of
  -- the anchors with the others took 76 s at TPC-H scale factor 0.01 (these windows: a fraction of a second)
  SELECT rid, c,
         row_number() OVER (PARTITION BY rid ORDER BY CASE WHEN pick = 1 THEN 0 ELSE 1 END, b, pick) AS j,
         sum(b) OVER (PARTITION BY rid ORDER BY CASE WHEN pick = 1 THEN 0 ELSE 1 END, b, pick
                      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS total
  FROM ranked
)
SELECT sum(CASE WHEN c < low THEN c ELSE low END) FROM (SELECT rid, min(total / j) AS low, min(c) AS c FROM running GROUP BY rid) AS r
-- bind parameters: [4, 25]

-- rpd_bound: a lower bound on the RPD (Eq. 1-3) of every cut a search can reach from a cut by specializing its open
-- nodes (``search.py``). A record's RPD is the mean of 1 / prod(d(u) * |C(u)|) over its leaf paths. Every leaf
-- path of a cut below (its disassociations included) keeps some of the nodes of one of the record's source paths,
-- each at a depth no greater than the source's position and with a |C(u)| no greater than the widest level its
-- cut node can still reach (an open node: the widest level at or below it; a closed node or a value: its own).
-- So 1 / max over the record's source paths of prod(position * that width) bounds the record's RPD from below.
-- context: paths (the forest's source paths: rid, path of value nodes), map (the cut's, create_cut_map.sql.j2),
--          dgh, depth, open [(node id, the widest level's width)]: the cut's nodes that may still be specialized
-- returns: the sum of the records' bounds
WITH factor AS (
  SELECT m.leaf,
         d.width
  FROM "sqlanon_0a1b2c3d_rmap" AS m JOIN "sqlanon_0a1b2c3d_rdgh" AS d ON d.id = m.gen
), per_path AS (
  SELECT p.rid, coalesce(ln(CAST(1 * f1.width AS DOUBLE PRECISION)), 0) + coalesce(ln(CAST(2 * f2.width AS DOUBLE PRECISION)), 0) + coalesce(ln(CAST(3 * f3.width AS DOUBLE PRECISION)), 0) AS logs
  FROM "sqlanon_0a1b2c3d_rp0" AS p
  LEFT JOIN factor AS f1 ON f1.leaf = p.path[1]
  LEFT JOIN factor AS f2 ON f2.leaf = p.path[2]
  LEFT JOIN factor AS f3 ON f3.leaf = p.path[3]
)
SELECT sum(exp(-logs)) FROM (SELECT rid, max(logs) AS logs FROM per_path GROUP BY rid) AS r
-- bind parameters: []

-- measure_rpd_delta: what RPD and RPD_a of a specialization E u {g} of a cut E (needing no disassociation)
-- change by, read from the records holding g (the only ones it changes) and E's parts (rpd_state.sql.j2).
-- A record that does not hold g keeps its trees, so its RPD. A synopsis node (a rooted label path) that holds
-- neither g nor a child of g keeps its support, and whether it is a leaf (it has a child through g in E exactly
-- when it has one through a child of g in E u {g}), and so does a leaf's numerator term when the leaf holds
-- neither: the records' values along it map as before. The nodes holding g are E's alone, and all go; those
-- holding a child of g are new, held by g's holders alone, and so are their children.
-- context: paths (rid, path: the holders' trees under E u {g}; every record has a path), records, prefixes
--          (E's parts), node (g), dgh, depth
-- returns: the holders' RPD summed under E u {g}, and under E; E's synopsis nodes holding g, how many of them
--          are leaves and their numerator terms summed; the same of the new nodes of E u {g}
WITH per_record AS (
  SELECT p.rid, avg(exp(-(coalesce(ln(CAST(1 * d1.width AS DOUBLE PRECISION)), 0) + coalesce(ln(CAST(2 * d2.width AS DOUBLE PRECISION)), 0) + coalesce(ln(CAST(3 * d3.width AS DOUBLE PRECISION)), 0)))) AS rpd
  FROM "sqlanon_0a1b2c3d_rdpaths" AS p
  LEFT JOIN "sqlanon_0a1b2c3d_rdgh" AS d1 ON d1.id = p.path[1]
  LEFT JOIN "sqlanon_0a1b2c3d_rdgh" AS d2 ON d2.id = p.path[2]
  LEFT JOIN "sqlanon_0a1b2c3d_rdgh" AS d3 ON d3.id = p.path[3]
  GROUP BY p.rid
), held AS (
  SELECT h.prefix, h.len, count(*) AS sup
  FROM (SELECT DISTINCT rid, prefix, len FROM (
    SELECT rid, (path)[1:1] AS prefix, 1 AS len FROM "sqlanon_0a1b2c3d_rdpaths" WHERE cardinality(path) >= 1
    UNION ALL
    SELECT rid, (path)[1:2] AS prefix, 2 AS len FROM "sqlanon_0a1b2c3d_rdpaths" WHERE cardinality(path) >= 2
    UNION ALL
    SELECT rid, (path)[1:3] AS prefix, 3 AS len FROM "sqlanon_0a1b2c3d_rdpaths" WHERE cardinality(path) >= 3
  ) AS all_prefixes) AS h
  GROUP BY h.prefix, h.len
), nodes AS (
  SELECT h.prefix, h.len, coalesce(s.sup, h.sup) AS sup, s.len IS NULL AS added
  FROM held AS h LEFT JOIN "sqlanon_0a1b2c3d_rppre" AS s ON s.len = h.len AND s.prefix = h.prefix
), added AS (
  SELECT prefix, len FROM nodes WHERE added
), added_leaves AS (
  SELECT q.prefix, q.len FROM added AS q
  WHERE NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT (prefix)[1:len - 1] AS prefix FROM added WHERE len > 1) AS i
                    WHERE i.prefix = q.prefix)
), added_cost AS (
  SELECT l.prefix, sum(q.sup) * exp(-sum(ln(CAST(u.i * d.width AS DOUBLE PRECISION)))) AS cost
  FROM added_leaves AS l
  CROSS JOIN LATERAL unnest(l.prefix) WITH ORDINALITY AS u(node, i)
  JOIN nodes AS q ON q.len = u.i AND q.prefix = (l.prefix)[1:u.i]
  JOIN "sqlanon_0a1b2c3d_rdgh" AS d ON d.id = u.node
  GROUP BY l.prefix
), removed AS (
  SELECT cost FROM "sqlanon_0a1b2c3d_rppre" WHERE array_position(prefix, ?) IS NOT NULL
)
SELECT (SELECT sum(rpd) FROM per_record),
       (SELECT sum(r.rpd) FROM "sqlanon_0a1b2c3d_rprec" AS r WHERE r.rid IN (SELECT rid FROM "sqlanon_0a1b2c3d_rdpaths")),
       (SELECT count(*) FROM removed), (SELECT count(cost) FROM removed), (SELECT sum(cost) FROM removed),
       (SELECT count(*) FROM added), (SELECT count(*) FROM added_leaves), (SELECT sum(cost) FROM added_cost)
-- bind parameters: [9]

-- rpd_state: a cut's RPD and RPD_a kept in parts (measure_rpd.sql.j2's), so that each specialization of it that
-- needs no disassociation is measured on the records it changes alone (measure_rpd_delta.sql.j2).
-- what: records  -> table (rid, rpd): each record's RPD, the mean over its leaf paths
--       prefixes -> table (prefix, len, sup, cost): the synopsis's nodes with the records holding each, and
--                   for a leaf its term of RPD_a's numerator (NULL for an inner node)
--       totals   -> the records' RPD summed, the records, the synopsis's nodes, its leaves, RPD_a's numerator
-- context: what, table (new; records, prefixes), paths (rid, path: the cut's projection, a row per record's
--          leaf path), dgh, depth (records, prefixes); records, prefixes (the two tables; totals)
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rppre" AS
WITH nodes AS (
  SELECT h.prefix, h.len, count(*) AS sup
  FROM (SELECT DISTINCT rid, prefix, len FROM (
    SELECT rid, (path)[1:1] AS prefix, 1 AS len FROM "sqlanon_0a1b2c3d_rpc" WHERE cardinality(path) >= 1
    UNION ALL
    SELECT rid, (path)[1:2] AS prefix, 2 AS len FROM "sqlanon_0a1b2c3d_rpc" WHERE cardinality(path) >= 2
    UNION ALL
    SELECT rid, (path)[1:3] AS prefix, 3 AS len FROM "sqlanon_0a1b2c3d_rpc" WHERE cardinality(path) >= 3
  ) AS all_prefixes) AS h
  GROUP BY h.prefix, h.len
), leaves AS (
  SELECT q.prefix, q.len FROM nodes AS q
  WHERE NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT (prefix)[1:len - 1] AS prefix FROM nodes WHERE len > 1) AS i
                    WHERE i.prefix = q.prefix)
), leaf_cost AS (
  SELECT l.prefix, (coalesce(q1.sup, 0) + coalesce(q2.sup, 0) + coalesce(q3.sup, 0)) * exp(-(coalesce(ln(CAST(1 * d1.width AS DOUBLE PRECISION)), 0) + coalesce(ln(CAST(2 * d2.width AS DOUBLE PRECISION)), 0) + coalesce(ln(CAST(3 * d3.width AS DOUBLE PRECISION)), 0))) AS cost
  FROM leaves AS l
  LEFT JOIN nodes AS q1 ON l.len >= 1 AND q1.len = 1 AND q1.prefix = (l.prefix)[1:1]
  LEFT JOIN "sqlanon_0a1b2c3d_rdgh" AS d1 ON d1.id = l.prefix[1]
  LEFT JOIN nodes AS q2 ON l.len >= 2 AND q2.len = 2 AND q2.prefix = (l.prefix)[1:2]
  LEFT JOIN "sqlanon_0a1b2c3d_rdgh" AS d2 ON d2.id = l.prefix[2]
  LEFT JOIN nodes AS q3 ON l.len >= 3 AND q3.len = 3 AND q3.prefix = (l.prefix)[1:3]
  LEFT JOIN "sqlanon_0a1b2c3d_rdgh" AS d3 ON d3.id = l.prefix[3]
)
SELECT n.prefix, n.len, n.sup, c.cost FROM nodes AS n LEFT JOIN leaf_cost AS c ON c.prefix = n.prefix
-- bind parameters: []

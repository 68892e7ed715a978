-- measure_rpd: the information loss of a cut's trees (seed 003, section 3.3). RPD (Eq. 1-3): per leaf path
-- 1 / prod(d(u) * |C(u)|) with d the node's depth (1 under the root) and |C(u)| the nodes of its class at its
-- level, averaged over a record's leaf paths, then over records. RPD_a (Eq. 6-7), the search's estimate on the
-- synopsis tree (all records' trees superimposed): per synopsis leaf path, the sum of its nodes' supports (the
-- records holding the path down to the node) over the same product, summed, divided by the synopsis's nodes and
-- leaves (macros/rpd.sql.j2).
-- context: paths, dgh, weights (rid, weight: the records each tree stands for; none: each row of paths is one
--          record's, as a projection the search does not group into distinct trees), depth (the longest path's
--          nodes)
-- returns: rpd, rpd_a, records, synopsis nodes, synopsis leaves
WITH per_path AS (
  SELECT p.rid, exp(-(coalesce(ln(CAST(1 * d1.width AS DOUBLE)), 0) + coalesce(ln(CAST(2 * d2.width AS DOUBLE)), 0) + coalesce(ln(CAST(3 * d3.width AS DOUBLE)), 0))) AS rpd
  FROM `sqlanon_0a1b2c3d_rpc` AS p
  LEFT JOIN `sqlanon_0a1b2c3d_rdgh` AS d1 ON d1.id = try_element_at(p.path, 1)
  LEFT JOIN `sqlanon_0a1b2c3d_rdgh` AS d2 ON d2.id = try_element_at(p.path, 2)
  LEFT JOIN `sqlanon_0a1b2c3d_rdgh` AS d3 ON d3.id = try_element_at(p.path, 3)
), per_record AS (
  SELECT p.rid, avg(p.rpd) AS rpd, 1 AS weight FROM per_path AS p GROUP BY p.rid
), prefixes AS (
  SELECT h.prefix, h.len, count(*) AS sup
  FROM (SELECT DISTINCT rid, prefix, len FROM (
    SELECT rid, slice(path, 1, 1) AS prefix, 1 AS len FROM `sqlanon_0a1b2c3d_rpc` WHERE cardinality(path) >= 1
    UNION ALL
    SELECT rid, slice(path, 1, 2) AS prefix, 2 AS len FROM `sqlanon_0a1b2c3d_rpc` WHERE cardinality(path) >= 2
    UNION ALL
    SELECT rid, slice(path, 1, 3) AS prefix, 3 AS len FROM `sqlanon_0a1b2c3d_rpc` WHERE cardinality(path) >= 3
  ) AS all_prefixes) AS h
  GROUP BY h.prefix, h.len
), leaves AS (
  SELECT q.prefix, q.len FROM prefixes AS q
  WHERE NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT slice(prefix, 1, len - 1) AS prefix FROM prefixes WHERE len > 1) AS i
                    WHERE i.prefix = q.prefix)
), leaf_cost AS (
  SELECT l.prefix, (coalesce(q1.sup, 0) + coalesce(q2.sup, 0) + coalesce(q3.sup, 0)) * exp(-(coalesce(ln(CAST(1 * d1.width AS DOUBLE)), 0) + coalesce(ln(CAST(2 * d2.width AS DOUBLE)), 0) + coalesce(ln(CAST(3 * d3.width AS DOUBLE)), 0))) AS cost
  FROM leaves AS l
  LEFT JOIN prefixes AS q1 ON l.len >= 1 AND q1.len = 1 AND q1.prefix = slice(l.prefix, 1, 1)
  LEFT JOIN `sqlanon_0a1b2c3d_rdgh` AS d1 ON d1.id = try_element_at(l.prefix, 1)
  LEFT JOIN prefixes AS q2 ON l.len >= 2 AND q2.len = 2 AND q2.prefix = slice(l.prefix, 1, 2)
  LEFT JOIN `sqlanon_0a1b2c3d_rdgh` AS d2 ON d2.id = try_element_at(l.prefix, 2)
  LEFT JOIN prefixes AS q3 ON l.len >= 3 AND q3.len = 3 AND q3.prefix = slice(l.prefix, 1, 3)
  LEFT JOIN `sqlanon_0a1b2c3d_rdgh` AS d3 ON d3.id = try_element_at(l.prefix, 3)
)
SELECT (SELECT sum(rpd * weight) / sum(weight) FROM per_record),
       (SELECT sum(cost) FROM leaf_cost),
       (SELECT sum(weight) FROM per_record),
       (SELECT count(*) FROM prefixes),
       (SELECT count(*) FROM leaves)
-- bind parameters: []

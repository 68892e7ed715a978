-- measure_rpd: the information loss of a cut's trees (seed 003, section 3.3). RPD (Eq. 1-3): per leaf path
-- 1 / prod(d(u) * |C(u)|) with d the node's depth (1 under the root) and |C(u)| the nodes of its class at its
-- level, averaged over a record's leaf paths, then over records. RPD_a (Eq. 6-7), the search's estimate on the
-- synopsis tree (all records' trees superimposed): per synopsis leaf path, the sum of its nodes' supports (the
-- records holding the path down to the node) over the same product, summed, divided by the synopsis's nodes and
-- leaves. Products are taken as exp(-sum(ln(.))), which neither overflows nor underflows for deep paths.
-- context: paths, dgh, weights (rid, weight: the records each tree stands for)
-- returns: rpd, rpd_a, records, synopsis nodes, synopsis leaves
WITH steps AS (
  SELECT p.rid, p.path, u.item, u.o
  FROM "sqlanon_0a1b2c3d_rtrees0" AS p CROSS JOIN LATERAL unnest(p.path) WITH ORDINALITY AS u(item, o)
), per_path AS (
  SELECT s.rid, s.path, exp(-sum(ln(CAST(s.o * d.width AS DOUBLE PRECISION)))) AS rpd
  FROM steps AS s JOIN "sqlanon_0a1b2c3d_rdgh" AS d ON d.id = s.item
  GROUP BY s.rid, s.path
), per_record AS (
  SELECT p.rid, avg(p.rpd) AS rpd, max(w.weight) AS weight
  FROM per_path AS p JOIN "sqlanon_0a1b2c3d_rweights" AS w ON w.rid = p.rid GROUP BY p.rid
), prefixes AS (
  SELECT h.prefix, h.len, sum(w.weight) AS sup
  FROM (SELECT DISTINCT rid, path[1:o] AS prefix, o AS len FROM steps) AS h
  JOIN "sqlanon_0a1b2c3d_rweights" AS w ON w.rid = h.rid
  GROUP BY h.prefix, h.len
), leaves AS (
  SELECT prefix FROM prefixes
  EXCEPT
  SELECT prefix[1:len - 1] FROM prefixes WHERE len > 1
), leaf_cost AS (
  SELECT l.prefix, sum(q.sup) AS sups, exp(-sum(ln(CAST(u.o * d.width AS DOUBLE PRECISION)))) AS inverse
  FROM leaves AS l
  CROSS JOIN LATERAL unnest(l.prefix) WITH ORDINALITY AS u(item, o)
  JOIN prefixes AS q ON q.len = u.o AND q.prefix = l.prefix[1:u.o]
  JOIN "sqlanon_0a1b2c3d_rdgh" AS d ON d.id = u.item
  GROUP BY l.prefix
)
SELECT (SELECT sum(rpd * weight) / sum(weight) FROM per_record),
       (SELECT sum(sups * inverse) FROM leaf_cost),
       (SELECT sum(weight) FROM per_record),
       (SELECT count(*) FROM prefixes),
       (SELECT count(*) FROM leaves)
-- bind parameters: []

-- find_structure_rule: the relations that may be disassociated next, or no row when the cut's trees are
-- k^(m,n)-anonymous in their structure: every relation of an R of a combination (X, R) of up to m labels and 1
-- to n relations between them that some but fewer than k records hold, with the records holding the relation,
-- fewest first (then the lowest ids; cuts.py takes the first, and with it the others that violate alone and
-- share no label with those taken). One global order over all violations (the paper's nested order over X, then
-- R, is one of many; docs/related_tables.md). Every (X, R) a record holds is generated once per record: X in id order, R as a
-- bitmask over X's pairs, taken from the pairs related in that record.
-- With `fresh` (a node of the parent cut that this cut replaced by its children), only the combinations holding
-- one of the new labels are looked at, and `items` need only hold the records that had `fresh`: every
-- other combination keeps its support (the parent cut passed without a disassociation), and only those records
-- can hold a new label. Such an X is generated once per record from its smallest new label, then the others in
-- id order (fewer rows than every X filtered). Whether two labels of X are related is read from the lower one's
-- `below`. Records are first counted per (X, relations present): many hold the same, and only then is each
-- count spread over the relation sets R it contains. With `exists`, one row when some combination violates,
-- naming none.
-- context: items (create_tree_labels.sql.j2's: rid, item, fresh, below), relations (rid, a, b: for the
--          supports of the relations found; not read with exists), weights (rid, weight: the records each tree stands for; none: one
--          per row), m, n, k, masks, max_pairs, limit, fresh (none or a node id), exists, size (optional:
--          only the combinations of that many labels)
-- returns: a, b, support of a ~> b (at most `limit` rows); with exists, one row or none
WITH violating AS (
  SELECT CASE WHEN (mask & 1) <> 0 THEN x0 END AS a0, CASE WHEN (mask & 1) <> 0 THEN x1 END AS b0, CAST(NULL AS INTEGER) AS a1, CAST(NULL AS INTEGER) AS b1, CAST(NULL AS INTEGER) AS a2, CAST(NULL AS INTEGER) AS b2
  FROM (
    SELECT x0, x1, mask
    FROM (
    SELECT x0, x1, present, sum(weight) AS weight
    FROM (
      SELECT i0.item AS x0, i1.item AS x1, w.weight,
(CASE WHEN array_position(i0.below, i1.item) IS NOT NULL THEN 1 ELSE 0 END) AS present
      FROM "sqlanon_0a1b2c3d_rtitems" AS i0
      JOIN "sqlanon_0a1b2c3d_rweights" AS w ON w.rid = i0.rid
      JOIN "sqlanon_0a1b2c3d_rtitems" AS i1 ON i1.rid = i0.rid AND i1.item > i0.item
    ) AS rows_held
    WHERE rows_held.present <> 0
    GROUP BY x0, x1, present
    ) AS held
    JOIN (VALUES (1)) AS ms(mask)
      ON (held.present & ms.mask) = ms.mask
    WHERE held.present <> 0
    GROUP BY x0, x1, mask
    HAVING sum(held.weight) < ?
  ) AS v2
  UNION ALL
  SELECT CASE WHEN (mask & 1) <> 0 THEN x0 END AS a0, CASE WHEN (mask & 1) <> 0 THEN x1 END AS b0, CASE WHEN (mask & 2) <> 0 THEN x0 END AS a1, CASE WHEN (mask & 2) <> 0 THEN x2 END AS b1, CASE WHEN (mask & 4) <> 0 THEN x1 END AS a2, CASE WHEN (mask & 4) <> 0 THEN x2 END AS b2
  FROM (
    SELECT x0, x1, x2, mask
    FROM (
    SELECT x0, x1, x2, present, sum(weight) AS weight
    FROM (
      SELECT i0.item AS x0, i1.item AS x1, i2.item AS x2, w.weight,
(CASE WHEN array_position(i0.below, i1.item) IS NOT NULL THEN 1 ELSE 0 END) + (CASE WHEN array_position(i0.below, i2.item) IS NOT NULL THEN 2 ELSE 0 END) + (CASE WHEN array_position(i1.below, i2.item) IS NOT NULL THEN 4 ELSE 0 END) AS present
      FROM "sqlanon_0a1b2c3d_rtitems" AS i0
      JOIN "sqlanon_0a1b2c3d_rweights" AS w ON w.rid = i0.rid
      JOIN "sqlanon_0a1b2c3d_rtitems" AS i1 ON i1.rid = i0.rid AND i1.item > i0.item
      JOIN "sqlanon_0a1b2c3d_rtitems" AS i2 ON i2.rid = i0.rid AND i2.item > i1.item
    ) AS rows_held
    WHERE rows_held.present <> 0
    GROUP BY x0, x1, x2, present
    ) AS held
    JOIN (VALUES (1), (2), (3), (4), (5), (6)) AS ms(mask)
      ON (held.present & ms.mask) = ms.mask
    WHERE held.present <> 0
    GROUP BY x0, x1, x2, mask
    HAVING sum(held.weight) < ?
  ) AS v3
), rules AS (
  SELECT a0 AS a, b0 AS b FROM violating WHERE a0 IS NOT NULL
  UNION
  SELECT a1 AS a, b1 AS b FROM violating WHERE a1 IS NOT NULL
  UNION
  SELECT a2 AS a, b2 AS b FROM violating WHERE a2 IS NOT NULL
)
SELECT r.a, r.b, sum(w.weight) AS support
FROM rules AS r JOIN "sqlanon_0a1b2c3d_rrel" AS ad ON ad.a = r.a AND ad.b = r.b
JOIN "sqlanon_0a1b2c3d_rweights" AS w ON w.rid = ad.rid
GROUP BY r.a, r.b
ORDER BY support, r.a, r.b
LIMIT 1000
-- bind parameters: [20, 20]

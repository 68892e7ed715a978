-- audit_trees: k^(m,n)-anonymity of a table of trees, from its own rows only (record_id, node_id, parent_id,
-- attribute, value; seed 003, Definition 1 read formally): the supports of every combination of 1..m labels
-- (a label: attribute and value, NULL a value of its own) and 0..n ancestor-descendant relations among them that
-- some record holds. Each record's (X, R) are generated once: X in label order, R as a bitmask over X's pairs
-- with two bits per pair (either direction; nothing is assumed of the classes' order).
-- context: table (parts), m, n, masks ({size: [masks with at most n bits over 2 * C(size, 2) bits]}), k (or none)
-- returns: records, nodes, nodes whose parent is not a node of their record (or that lie on a cycle), the
--          smallest positive support, combinations below k (0 without k)
WITH RECURSIVE labels AS (
  SELECT attribute, value, dense_rank() OVER (ORDER BY attribute, value) AS lid
  FROM (SELECT DISTINCT attribute, value FROM "analytics"."we""ird; col") AS l
), nodes AS (
  SELECT t.record_id AS rid, t.node_id, t.parent_id, l.lid
  FROM "analytics"."we""ird; col" AS t
  JOIN labels AS l ON l.attribute IS NOT DISTINCT FROM t.attribute AND l.value IS NOT DISTINCT FROM t.value
), up(rid, node_id, ancestor, steps) AS (
  SELECT n.rid, n.node_id, n.parent_id, 1 FROM nodes AS n WHERE n.parent_id IS NOT NULL
  UNION ALL
  SELECT u.rid, u.node_id, p.parent_id, u.steps + 1
  FROM up AS u JOIN nodes AS p ON p.rid = u.rid AND p.node_id = u.ancestor
  WHERE p.parent_id IS NOT NULL AND u.steps < 64
), broken AS (
  SELECT count(*) AS c FROM (
    SELECT u.rid, u.node_id FROM up AS u
    WHERE u.steps >= 64
       OR NOT EXISTS (SELECT 1 FROM nodes AS p WHERE p.rid = u.rid AND p.node_id = u.ancestor)
    UNION
    SELECT n.rid, n.node_id FROM nodes AS n GROUP BY n.rid, n.node_id HAVING count(*) > 1
  ) AS b
), items AS (
  SELECT DISTINCT rid, lid AS item FROM nodes
), relations AS (
  SELECT DISTINCT u.rid, a.lid AS a, d.lid AS b
  FROM up AS u
  JOIN nodes AS d ON d.rid = u.rid AND d.node_id = u.node_id
  JOIN nodes AS a ON a.rid = u.rid AND a.node_id = u.ancestor
), supports AS (
  SELECT count(*) AS support FROM (
    SELECT i0.item AS x0,            0 AS present
    FROM items AS i0
  ) AS held
  JOIN (VALUES (0)) AS ms(mask)
    ON (held.present & ms.mask) = ms.mask
  GROUP BY x0, ms.mask
  UNION ALL
  SELECT count(*) AS support FROM (
    SELECT i0.item AS x0, i1.item AS x1, (CASE WHEN f0_1.rid IS NULL THEN 0 ELSE 1 END) + (CASE WHEN g0_1.rid IS NULL THEN 0 ELSE 2 END) AS present
    FROM items AS i0
    JOIN items AS i1 ON i1.rid = i0.rid AND i1.item > i0.item
    LEFT JOIN relations AS f0_1 ON f0_1.rid = i0.rid AND f0_1.a = i0.item AND f0_1.b = i1.item
    LEFT JOIN relations AS g0_1 ON g0_1.rid = i0.rid AND g0_1.a = i1.item AND g0_1.b = i0.item
  ) AS held
  JOIN (VALUES (0), (1), (2), (3)) AS ms(mask)
    ON (held.present & ms.mask) = ms.mask
  GROUP BY x0, x1, ms.mask
  UNION ALL
  SELECT count(*) AS support FROM (
    SELECT i0.item AS x0, i1.item AS x1, i2.item AS x2, (CASE WHEN f0_1.rid IS NULL THEN 0 ELSE 1 END) + (CASE WHEN g0_1.rid IS NULL THEN 0 ELSE 2 END) + (CASE WHEN f0_2.rid IS NULL THEN 0 ELSE 4 END) + (CASE WHEN g0_2.rid IS NULL THEN 0 ELSE 8 END) + (CASE WHEN f1_2.rid IS NULL THEN 0 ELSE 16 END) + (CASE WHEN g1_2.rid IS NULL THEN 0 ELSE 32 END) AS present
    FROM items AS i0
    JOIN items AS i1 ON i1.rid = i0.rid AND i1.item > i0.item
    JOIN items AS i2 ON i2.rid = i0.rid AND i2.item > i1.item
    LEFT JOIN relations AS f0_1 ON f0_1.rid = i0.rid AND f0_1.a = i0.item AND f0_1.b = i1.item
    LEFT JOIN relations AS g0_1 ON g0_1.rid = i0.rid AND g0_1.a = i1.item AND g0_1.b = i0.item
    LEFT JOIN relations AS f0_2 ON f0_2.rid = i0.rid AND f0_2.a = i0.item AND f0_2.b = i2.item
    LEFT JOIN relations AS g0_2 ON g0_2.rid = i0.rid AND g0_2.a = i2.item AND g0_2.b = i0.item
    LEFT JOIN relations AS f1_2 ON f1_2.rid = i0.rid AND f1_2.a = i1.item AND f1_2.b = i2.item
    LEFT JOIN relations AS g1_2 ON g1_2.rid = i0.rid AND g1_2.a = i2.item AND g1_2.b = i1.item
  ) AS held
  JOIN (VALUES (0), (1), (2), (3), (4), (5), (6), (8), (9), (10), (12), (16), (17), (18), (20), (24), (32), (33), (34), (36), (40), (48)) AS ms(mask)
    ON (held.present & ms.mask) = ms.mask
  GROUP BY x0, x1, x2, ms.mask
)
SELECT (SELECT count(DISTINCT rid) FROM nodes), (SELECT count(*) FROM nodes), (SELECT c FROM broken),
       (SELECT min(support) FROM supports),
(SELECT count(*) FROM supports WHERE support < ?)
-- bind parameters: [20]

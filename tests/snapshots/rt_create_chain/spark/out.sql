-- create_chain: the rows of one chain of tables from the root down (records.table, a child, its child, ...),
-- one per deepest row reached: the root's rows LEFT JOIN their first `limit` children by key, and so on. Each
-- class of the chain is one value column; `len` is how many of the chain's class slots are present (a missing
-- child row ends the path there, while a present row with a NULL value keeps its slot: NULL is a label).
-- Records are numbered by the root's key, the same in every chain.
-- context: table (new), chain [{parts, key, fk (none at the root), limit (or none),
--          attrs [{cls, column, lookup (none or {parts, key, column})}]}]
-- columns: rid, x{cls} per class of the chain (the column's own type), len
CACHE TABLE `sqlanon_0a1b2c3d_rch0` AS
SELECT t0.rid, t0.x0, t1.x1, t1.x2,
1 + CASE WHEN t1.present IS NULL THEN 0 ELSE 2 END AS len
FROM (
  SELECT row_number() OVER (ORDER BY c.`id`) AS rid, c.`id` AS k, c.`nation` AS x0
  FROM `analytics`.`we"ird; col` AS c

) AS t0
LEFT JOIN (
  SELECT c.`cust` AS f, c.`pct%col` AS k, 1 AS present, c.`we"ird; col` AS x1, lk2.`pct%col` AS x2
  FROM (
    SELECT s.*, row_number() OVER (PARTITION BY s.`cust` ORDER BY s.`pct%col`) AS sqlanon_rank
    FROM `analytics`.`orders` AS s
  ) AS c
  LEFT JOIN `analytics`.`part` AS lk2 ON lk2.`p_key` = c.`part`

  WHERE c.sqlanon_rank <= ?
) AS t1 ON t1.f = t0.k
-- bind parameters: [2]

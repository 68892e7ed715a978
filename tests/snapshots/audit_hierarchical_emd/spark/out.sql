-- audit_hierarchical_emd: largest hierarchical-distance EMD (t-closeness, Li, Li, Venkatasubramanian 2007)
-- of the classes of an existing table, with the sensitive attribute's hierarchy in `lookup` (columns value,
-- l0 .. l{height-1}, single top value; validated by the caller). Definition, per class:
--   sum over internal nodes N of level(N)/(h-1) * min(pos_extra(N), neg_extra(N)),
-- which equals 1/(h-1) * sum over the nodes N at levels 0..h-2 of max(extra(N), 0): every node below the top
-- has exactly one parent, min(pos, neg) = pos_extra(N) - max(extra(N), 0), and summing level(N) times that
-- telescopes (proof in sqlanon/measures.py). Only nodes holding records of the class can have a positive extra,
-- so no class x node grid is needed. NULL (no hierarchy row) stays NULL below the top: its own chain of
-- nodes, joining the others at the top (SEMANTICS.md, extended match).
-- extra(N) = P_N - Q_N, scaled by size * total: P_count * total - Q_count * size (an integer).
-- context: table (parts), qis, column, lookup, height (>= 2)
-- columns: t_hierarchical (NULL for an empty table)
WITH cells AS (
  SELECT dense_rank() OVER (ORDER BY `age`, `we"ird; col`) AS cid,
         CAST(`pct%col` AS STRING) AS v,
         count(*) AS cnt
  FROM `analytics`.`we"ird; col`
  GROUP BY `age`, `we"ird; col`, `pct%col`
), sized AS (
  SELECT cid, v, cnt, sum(cnt) OVER (PARTITION BY cid) AS size, sum(cnt) OVER () AS total FROM cells
), leaves AS (
  SELECT DISTINCT value, `l0`, `l1`, `l2`
  FROM `sqlanon_0a1b2c3d_audit_h0`
  WHERE value IS NOT NULL
), mapped AS (
  SELECT s.cid, s.cnt, s.size, s.total, h.`l0`, h.`l1`, h.`l2`
  FROM sized AS s
  LEFT JOIN leaves AS h ON h.value = s.v
), nodes AS (
  SELECT cid, 0 AS lvl, `l0` AS label, max(size) AS size, max(total) AS total, sum(cnt) AS p
  FROM mapped
  GROUP BY cid, `l0`
  UNION ALL
  SELECT cid, 1 AS lvl, `l1` AS label, max(size) AS size, max(total) AS total, sum(cnt) AS p
  FROM mapped
  GROUP BY cid, `l1`
  UNION ALL
  SELECT cid, 2 AS lvl, `l2` AS label, max(size) AS size, max(total) AS total, sum(cnt) AS p
  FROM mapped
  GROUP BY cid, `l2`
), extras AS (
  SELECT cid, size, total, p * total - sum(p) OVER (PARTITION BY lvl, label) * size AS extra FROM nodes
), per_class AS (
  SELECT cid, sum(CASE WHEN extra > 0 THEN extra ELSE 0 END) AS num, max(size) * max(total) AS den
  FROM extras
  GROUP BY cid
)
SELECT max(CAST(num AS DOUBLE) / CAST(den * 3 AS DOUBLE))
FROM per_class
-- bind parameters: []

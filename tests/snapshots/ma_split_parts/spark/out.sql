-- split_parts: one round of the partitioning that precedes MDAV on large tables: every part of more than
-- `limit` records is split at the median of its widest attribute (the largest variance on the standardized
-- scale, the first such attribute on ties: on skewed data max - min picks the attribute of one outlier) into
-- its lower floor(n/2) records and the rest (by value, then row id), all parts in one statement; parts are
-- then numbered 0, 1, ... again.
-- context: table (the standardized records), d (number of quasi-identifiers), limit
-- columns: none
UPDATE `sqlanon_0a1b2c3d_mz` AS t SET part = q.new_part
FROM (
  WITH sizes AS (
    SELECT part, count(*) AS n
         , coalesce(var_pop(z0), -1) AS w0
         , coalesce(var_pop(z1), -1) AS w1
    FROM `sqlanon_0a1b2c3d_mz` WHERE grp IS NULL GROUP BY part
  ), pick AS (
    SELECT part, n,
           CASE WHEN n <= ? THEN -1
                WHEN w0 = greatest(w0, w1) THEN 0
                WHEN w1 = greatest(w0, w1) THEN 1
           END AS axis
    FROM sizes
  ), ranked AS (
    SELECT z.rid, z.part, p.n, p.axis,
           row_number() OVER (PARTITION BY z.part ORDER BY CASE p.axis WHEN 0 THEN z.z0 WHEN 1 THEN z.z1 END, z.rid) AS rn
    FROM `sqlanon_0a1b2c3d_mz` AS z JOIN pick AS p ON p.part = z.part
    WHERE z.grp IS NULL
  )
  SELECT rid, dense_rank() OVER (ORDER BY part, CASE WHEN axis >= 0 AND 2 * rn > n THEN 1 ELSE 0 END) - 1 AS new_part
  FROM ranked
) AS q
WHERE t.rid = q.rid
-- bind parameters: [1000]

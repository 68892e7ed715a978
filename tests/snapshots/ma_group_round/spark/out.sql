-- group_round: one MDAV round, every part at once, as one statement. In each part with n records left: the
-- centroid c of those records; r, the record farthest from c (n >= 2k); s, the record farthest from r
-- (n >= 3k). Groups: g1, the k records nearest to r (r itself included); g2, the k records nearest to s among
-- those not in g1 (n >= 3k); the rest of a part with n < 3k (after g1 where n >= 2k). Every tie goes to the
-- lower row id. A group's id is base + part * stride + offset + 0, 1 or 2.
-- context: table (the standardized records), k, d, base, stride, offset
-- columns: none
UPDATE `sqlanon_0a1b2c3d_mz` SET grp = g.grp
FROM (
  WITH rem AS (
    SELECT * FROM `sqlanon_0a1b2c3d_mz` WHERE grp IS NULL
  ), c AS (
    SELECT part, count(*) AS n, avg(coalesce(z0, 0)) AS c0, avg(coalesce(z1, 0)) AS c1
    FROM rem GROUP BY part
  ), r AS (
    SELECT * FROM (
      SELECT rem.*, row_number() OVER (PARTITION BY rem.part ORDER BY ((coalesce(rem.z0, 0) - coalesce(c.c0, 0)) * (coalesce(rem.z0, 0) - coalesce(c.c0, 0)) + (coalesce(rem.z1, 0) - coalesce(c.c1, 0)) * (coalesce(rem.z1, 0) - coalesce(c.c1, 0))) DESC, rem.rid) AS rn
      FROM rem JOIN c ON c.part = rem.part
      WHERE c.n >= ?
    ) AS x WHERE rn = 1
  ), s AS (
    SELECT * FROM (
      SELECT rem.*, row_number() OVER (PARTITION BY rem.part ORDER BY ((coalesce(rem.z0, 0) - coalesce(r.z0, 0)) * (coalesce(rem.z0, 0) - coalesce(r.z0, 0)) + (coalesce(rem.z1, 0) - coalesce(r.z1, 0)) * (coalesce(rem.z1, 0) - coalesce(r.z1, 0))) DESC, rem.rid) AS rn
      FROM rem JOIN r ON r.part = rem.part JOIN c ON c.part = rem.part
      WHERE c.n >= ?
    ) AS x WHERE rn = 1
  ), g1 AS (
    SELECT rid, part FROM (
      SELECT rem.rid, rem.part, row_number() OVER (PARTITION BY rem.part ORDER BY ((coalesce(rem.z0, 0) - coalesce(r.z0, 0)) * (coalesce(rem.z0, 0) - coalesce(r.z0, 0)) + (coalesce(rem.z1, 0) - coalesce(r.z1, 0)) * (coalesce(rem.z1, 0) - coalesce(r.z1, 0))), rem.rid) AS rn
      FROM rem JOIN r ON r.part = rem.part
    ) AS x WHERE rn <= ?
  ), g2 AS (
    SELECT rid, part FROM (
      SELECT rem.rid, rem.part, row_number() OVER (PARTITION BY rem.part ORDER BY ((coalesce(rem.z0, 0) - coalesce(s.z0, 0)) * (coalesce(rem.z0, 0) - coalesce(s.z0, 0)) + (coalesce(rem.z1, 0) - coalesce(s.z1, 0)) * (coalesce(rem.z1, 0) - coalesce(s.z1, 0))), rem.rid) AS rn
      FROM rem JOIN s ON s.part = rem.part
      WHERE NOT EXISTS (SELECT 1 FROM g1 WHERE g1.rid = rem.rid)
    ) AS x WHERE rn <= ?
  ), rest AS (
    SELECT rem.rid, rem.part
    FROM rem JOIN c ON c.part = rem.part
    WHERE c.n < ? AND NOT EXISTS (SELECT 1 FROM g1 WHERE g1.rid = rem.rid)
  )
  SELECT rid, ? + part * ? + ? AS grp FROM g1
  UNION ALL
  SELECT rid, ? + part * ? + ? FROM g2
  UNION ALL
  SELECT rid, ? + part * ? + ? FROM rest
) AS g
WHERE `sqlanon_0a1b2c3d_mz`.rid = g.rid
-- bind parameters: [10, 15, 5, 5, 15, 0, 540, 9, 0, 540, 10, 0, 540, 11]

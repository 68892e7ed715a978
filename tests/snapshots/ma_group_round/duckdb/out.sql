-- group_round (DuckDB): the common template's round, with distances by array_distance over each record's
-- vector zv (standardize_records adds it on DuckDB; the root of the squared distance orders records the same),
-- the farthest records by arg_max over (distance, -row id) and the k nearest by min_by(row id, (distance,
-- row id), k): hash aggregates with a top-k, where the common template's windows sort every part's records.
-- context: table (the standardized records), k, d, base, stride, offset
-- columns: none
UPDATE "sqlanon_0a1b2c3d_mz" SET grp = g.grp
FROM (
  WITH rem AS (
    SELECT rid, part, zv FROM "sqlanon_0a1b2c3d_mz" WHERE grp IS NULL
  ), c AS (
    SELECT part, count(*) AS n,
           [avg(zv[1]), avg(zv[2])]::DOUBLE[2] AS cv
    FROM rem GROUP BY part
  ), r AS (
    SELECT rem.part, arg_max({'rid': rem.rid, 'zv': rem.zv}, row(array_distance(rem.zv, c.cv), -rem.rid)) AS p
    FROM rem JOIN c ON c.part = rem.part
    WHERE c.n >= ?
    GROUP BY rem.part
  ), s AS (
    SELECT rem.part, arg_max({'rid': rem.rid, 'zv': rem.zv}, row(array_distance(rem.zv, r.p.zv), -rem.rid)) AS p
    FROM rem JOIN r ON r.part = rem.part JOIN c ON c.part = rem.part
    WHERE c.n >= ?
    GROUP BY rem.part
  ), g1 AS (
    SELECT unnest(min_by(rem.rid, row(array_distance(rem.zv, r.p.zv), rem.rid), 5)) AS rid, rem.part
    FROM rem JOIN r ON r.part = rem.part
    GROUP BY rem.part
  ), g2 AS (
    SELECT unnest(min_by(rem.rid, row(array_distance(rem.zv, s.p.zv), rem.rid), 5)) AS rid, rem.part
    FROM rem JOIN s ON s.part = rem.part
    WHERE rem.rid NOT IN (SELECT rid FROM g1)
    GROUP BY rem.part
  ), rest AS (
    SELECT rem.rid, rem.part
    FROM rem JOIN c ON c.part = rem.part
    WHERE c.n < ? AND rem.rid NOT IN (SELECT rid FROM g1)
  )
  SELECT rid, ? + part * ? + ? AS grp FROM g1
  UNION ALL
  SELECT rid, ? + part * ? + ? FROM g2
  UNION ALL
  SELECT rid, ? + part * ? + ? FROM rest
) AS g
WHERE "sqlanon_0a1b2c3d_mz".rid = g.rid
-- bind parameters: [10, 15, 15, 0, 540, 9, 0, 540, 10, 0, 540, 11]

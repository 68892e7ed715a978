-- nearest_candidate: the next record to add to group `group` of the (k,p,q,r) heuristic (seed 004 section 4):
-- the record not yet grouped, in the part of the group's first record `around`, nearest to it (ties: lower row
-- id) among those meeting the step's condition, with the group's figures as they would be once it is added.
-- With C the group's values (c records, mean mu, population variance V) and v the candidate's:
--   new_value: v is not among C's values (p-sensitivity), preferring where adding v raises V;
--   raises:    adding v raises V, i.e. (v - mu)^2 > (c + 1) / c * V;
--   keeps:     the variance after adding v, c/(c+1) V + c/(c+1)^2 (v - mu)^2, stays >= min_var.
-- context: table (the standardized records), group, around (row id), step ('new_value' | 'raises' | 'keeps'),
--          prefer_raises (new_value: order by it first), min_var, d
-- columns: rid, records after, distinct values after, variance after
WITH c AS (
  SELECT count(*) AS n, avg(s) AS mu, coalesce(var_pop(s), 0) AS v FROM `sqlanon_0a1b2c3d_mz` WHERE grp = ?
), seed AS (
  SELECT * FROM `sqlanon_0a1b2c3d_mz` WHERE rid = ?
), candidates AS (
  SELECT z.rid, z.s,
         ((coalesce(z.z0, 0) - coalesce(seed.z0, 0)) * (coalesce(z.z0, 0) - coalesce(seed.z0, 0)) + (coalesce(z.z1, 0) - coalesce(seed.z1, 0)) * (coalesce(z.z1, 0) - coalesce(seed.z1, 0))) AS dist,
         CASE WHEN z.s IS NULL OR c.n = 0 THEN FALSE
              ELSE (z.s - c.mu) * (z.s - c.mu) * c.n > (c.n + 1) * c.v END AS raises,
         CASE WHEN z.s IS NULL OR c.n = 0 THEN c.v
              ELSE c.n * c.v / (c.n + 1) + c.n * (z.s - c.mu) * (z.s - c.mu) / ((c.n + 1) * (c.n + 1)) END AS v_after,
         NOT EXISTS (SELECT 1 FROM `sqlanon_0a1b2c3d_mz` AS g
                     WHERE g.grp = ? AND g.s IS NOT DISTINCT FROM z.s) AS new_value
  FROM `sqlanon_0a1b2c3d_mz` AS z CROSS JOIN c CROSS JOIN seed
  WHERE z.grp IS NULL AND z.part = seed.part
)
SELECT x.rid, c.n + 1,
       (SELECT count(DISTINCT s) + max(CASE WHEN s IS NULL THEN 1 ELSE 0 END) FROM `sqlanon_0a1b2c3d_mz`
        WHERE grp = ?) + CASE WHEN x.new_value THEN 1 ELSE 0 END,
       x.v_after
FROM candidates AS x CROSS JOIN c
WHERE x.raises
ORDER BY x.dist, x.rid
LIMIT 1
-- bind parameters: [1125899906842624, 17, 1125899906842624, 1125899906842624]

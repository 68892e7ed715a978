-- audit_source_comparison: a released table against the table it was made from, rows matched one to one on a key
-- column (a FULL JOIN: source rows missing from the release, suppressed or removed, and released rows matching no
-- source row are one-sided). Per quasi-identifier, a matched cell is modified when the released value IS DISTINCT
-- FROM the source's: compared as numbers (DOUBLE PRECISION) when the column is numeric in both tables, else as
-- text (VARCHAR; the '*' of a masked cell is a modification). A column with a hierarchy (lookup: value, l0 = the
-- value, l1 .. l{height-1} = the top) gets the level of each released cell: the lowest level whose label of the
-- source value equals the released value (text); a NULL source value is NULL below the top and joins the other
-- values at the top (as the lookups of a run), so NULL is its level 0 and the top label its top level; else '*'
-- is a masked cell, and any other value is a value the table does not generalize. A cloaked column c (a box)
-- is released as c_min and c_max in the table: its matched cell is modified unless the source value and both
-- bounds are NULL, and the source value lies outside the box unless c_min <= value < c_max (or all three NULL).
-- context: table, source (parts), key, columns (quasi-identifiers: name, numeric = numeric in both tables),
--          hierarchies (index into columns, lookup, height), boxes (cloaked column names c)
-- columns: source rows, matched rows, released rows matching no source row;
--          per column: modified cells of the source rows (a missing row modifies each);
--          per hierarchy: matched cells at level 0 .. height-1, masked '*' cells, cells not generalized;
--          per box: modified cells of the source rows, matched cells whose source value lies outside the box
WITH s AS (
  SELECT 1 AS present, `id` AS k, `AGI` AS v0, `we"ird; col` AS v1, `pct%col` AS b0
  FROM `analytics`.`we"ird; col`
), r AS (
  SELECT 1 AS present, `id` AS k, `AGI` AS v0, `we"ird; col` AS v1, `pct%col_min` AS lo0, `pct%col_max` AS hi0
  FROM `analytics`.`census_k3`
), pairs AS (
  SELECT s.present AS in_source, r.present AS in_table
       , CASE WHEN CAST(r.v0 AS DOUBLE) IS DISTINCT FROM CAST(s.v0 AS DOUBLE) THEN 1 ELSE 0 END AS m0
       , CASE WHEN CAST(r.v1 AS STRING) IS DISTINCT FROM CAST(s.v1 AS STRING) THEN 1 ELSE 0 END AS m1
       , CASE WHEN r.present IS NULL THEN -1
              WHEN s.v1 IS NULL THEN CASE WHEN r.v1 IS NULL THEN 0
                                             WHEN CAST(r.v1 AS STRING) = t0.top THEN 2
                                             WHEN CAST(r.v1 AS STRING) = ? THEN -2 ELSE -3 END
              WHEN CAST(r.v1 AS STRING) = h0.`l0` THEN 0
              WHEN CAST(r.v1 AS STRING) = h0.`l1` THEN 1
              WHEN CAST(r.v1 AS STRING) = h0.`l2` THEN 2
              WHEN CAST(r.v1 AS STRING) = ? THEN -2 ELSE -3 END AS lv0
       , CASE WHEN s.b0 IS NULL AND r.lo0 IS NULL AND r.hi0 IS NULL THEN 0 ELSE 1 END AS bm0
       , CASE WHEN s.b0 IS NULL THEN CASE WHEN r.lo0 IS NULL AND r.hi0 IS NULL THEN 0 ELSE 1 END
              WHEN s.b0 >= r.lo0 AND s.b0 < r.hi0 THEN 0 ELSE 1 END AS bo0
  FROM s
  FULL JOIN r ON r.k = s.k
  LEFT JOIN (
    SELECT DISTINCT value, `l0`, `l1`, `l2` FROM `sqlanon_0a1b2c3d_audit_h0` WHERE value IS NOT NULL
  ) AS h0 ON h0.value = CAST(s.v1 AS STRING)
  CROSS JOIN (SELECT max(`l2`) AS top FROM `sqlanon_0a1b2c3d_audit_h0`) AS t0
)
SELECT coalesce(sum(in_source), 0),
       coalesce(sum(CASE WHEN in_source = 1 AND in_table = 1 THEN 1 ELSE 0 END), 0),
       coalesce(sum(CASE WHEN in_source IS NULL THEN 1 ELSE 0 END), 0)
       , coalesce(sum(CASE WHEN in_source = 1 AND (in_table IS NULL OR m0 = 1) THEN 1 ELSE 0 END), 0)
       , coalesce(sum(CASE WHEN in_source = 1 AND (in_table IS NULL OR m1 = 1) THEN 1 ELSE 0 END), 0)
       , coalesce(sum(CASE WHEN in_source = 1 AND lv0 = 0 THEN 1 ELSE 0 END), 0)
       , coalesce(sum(CASE WHEN in_source = 1 AND lv0 = 1 THEN 1 ELSE 0 END), 0)
       , coalesce(sum(CASE WHEN in_source = 1 AND lv0 = 2 THEN 1 ELSE 0 END), 0)
       , coalesce(sum(CASE WHEN in_source = 1 AND lv0 = -2 THEN 1 ELSE 0 END), 0)
       , coalesce(sum(CASE WHEN in_source = 1 AND lv0 = -3 THEN 1 ELSE 0 END), 0)
       , coalesce(sum(CASE WHEN in_source = 1 AND (in_table IS NULL OR bm0 = 1) THEN 1 ELSE 0 END), 0)
       , coalesce(sum(CASE WHEN in_source = 1 AND in_table = 1 AND bo0 = 1 THEN 1 ELSE 0 END), 0)
FROM pairs
-- bind parameters: ['*', '*']

-- encode_hierarchy: integer-code every level of a hierarchy and attach the Loss weight (c - 1) per level.
-- c = number of non-NULL hierarchy rows (as written, duplicates included) carrying the same label
-- at that level (SEMANTICS.md, Loss), divided later by max(N - 1, 1). A NULL cell costs 0 below the top
-- and 1 at the top. Codes number a level's labels in byte order, NULL last (any fixed numbering would do).
-- Each level's labels are grouped (hashing) and joined back: window functions over the whole hierarchy
-- sorted it once per level, slow for a large hierarchy.
-- context: lookup (raw), coded (new table), height, null_explicit (the hierarchy maps NULL itself), leaves (N:
--          its non-NULL rows, describe_hierarchy.sql.j2), unique (survey_hierarchy.sql.j2 found a tree whose
--          rows each have their own value, equal to l0: a value's label at level 0 is on no other row, so c is 1
--          there, and the counts above come from the distinct label sequences from level 1 up, grouped once
--          and summed per level, instead of a pass over every row per level), sequences (with unique: the
--          survey's table of those
--          sequences, label_sequences.sql.j2), null_sequence (with unique: the top label of the NULL row
--          add_null_row.sql.j2 added after the sequences were grouped, its labels below NULL; else none),
--          data (none, or {source, column}: code only the rows of the values in the source column, and the
--          NULL row, as codes numbered among their labels; c still counts every row of the hierarchy. The
--          caller decides when the scan of the source costs less than joining every row: see _code_in_database)
-- columns: value, match_key, l{j} labels, g{j} codes, w{j} weights (INTEGER: at most the hierarchy's row count;
--          a narrower frequency set scans faster, and the frequency set's cnt * w{j} is BIGINT)
CACHE TABLE `sqlanon_0a1b2c3d_c0` AS
WITH v AS (
  -- the rows coded: one per value (rows written twice come out once)
  SELECT DISTINCT value, `l0`, `l1`, `l2`
  FROM `sqlanon_0a1b2c3d_h0`
  WHERE value IS NULL OR value IN (SELECT CAST(`we"ird; col` AS STRING) FROM `analytics`.`we"ird; col`)
)
, c0 AS (
  SELECT label, CAST(row_number() OVER (ORDER BY label ASC NULLS LAST) AS INTEGER) AS g, c
  FROM (
    SELECT `l0` AS label, count(value) AS c
    FROM `sqlanon_0a1b2c3d_h0` GROUP BY `l0`
  ) AS counted
  WHERE label IS NULL OR label IN (SELECT `l0` FROM v)
)
, c1 AS (
  SELECT label, CAST(row_number() OVER (ORDER BY label ASC NULLS LAST) AS INTEGER) AS g, c
  FROM (
    SELECT `l1` AS label, count(value) AS c
    FROM `sqlanon_0a1b2c3d_h0` GROUP BY `l1`
  ) AS counted
  WHERE label IS NULL OR label IN (SELECT `l1` FROM v)
)
, c2 AS (
  SELECT label, CAST(row_number() OVER (ORDER BY label ASC NULLS LAST) AS INTEGER) AS g, c
  FROM (
    SELECT `l2` AS label, count(value) AS c
    FROM `sqlanon_0a1b2c3d_h0` GROUP BY `l2`
  ) AS counted
  WHERE label IS NULL OR label IN (SELECT `l2` FROM v)
)
SELECT v.value, CASE WHEN v.value IS NULL THEN 'N' ELSE 'V' || v.value END AS match_key
     , v.`l0`
     , c0.g AS `g0`
     , CAST(CASE WHEN v.`l0` IS NULL THEN 0
            ELSE greatest(c0.c - 1, 0) END AS INTEGER) AS `w0`
     , v.`l1`
     , c1.g AS `g1`
     , CAST(CASE WHEN v.`l1` IS NULL THEN 0
            ELSE greatest(c1.c - 1, 0) END AS INTEGER) AS `w1`
     , v.`l2`
     , c2.g AS `g2`
     , CAST(CASE WHEN v.`l2` IS NULL THEN 0
            ELSE greatest(c2.c - 1, 0) END AS INTEGER) AS `w2`
FROM v
JOIN c0 ON c0.label IS NOT DISTINCT FROM v.`l0`
JOIN c1 ON c1.label IS NOT DISTINCT FROM v.`l1`
JOIN c2 ON c2.label IS NOT DISTINCT FROM v.`l2`
-- bind parameters: []

-- survey_hierarchy: whether a raw hierarchy is a plain tree, in a few hashed passes: every row has its own
-- value, equal to its l0 (the loaders write value = l0, NULL on the NULL row), and at most one row is NULL.
-- validate_hierarchy.sql.j2 finds no fault in such a hierarchy (without the data) and encode_hierarchy.sql.j2
-- may code it as `unique`; any other goes through that exhaustive listing, a pass over every row per level,
-- which costs a large hierarchy more than this survey.
-- All counts zero (and at most one NULL row) is the same as validate_hierarchy finding nothing, given value = l0:
--   * no value on two rows: no value has two labels at a level (ambiguous), and l0 -> l1 is a function;
--   * suffixes: the distinct label sequences (l_j, ..., l_top) of the rows with a value. A label at level
--     j >= 1 that starts two of them has two different ancestries, so some label on the way up has two
--     parents (inconsistent); conversely, a label with two parents at level m -> m + 1 starts two suffixes
--     at level m. Each level's suffixes are the previous level's grouped; level 1's are the label sequences
--     (label_sequences.sql.j2, grouped once for this survey and for the encoding) of rows with a value;
--   * no NULL label on a row with a value (incomplete: l0 through `unlike`, the levels above in the suffixes);
--   * two NULL rows are ambiguous when they differ, and a NULL mapped twice when not.
-- context: lookup, height, sequences (above height 1: the lookup's label sequences, label_sequences.sql.j2; those
--          with c > 0 are the suffixes at level 1)
-- columns: repeated (values on several rows), unlike (rows whose l0 is not their value), null_rows,
--          forks (labels at a level >= 1 that start two suffixes), incomplete (suffixes with a NULL label)
WITH repeated AS (
  SELECT count(*) AS n FROM (
    SELECT value FROM `sqlanon_0a1b2c3d_h0` WHERE value IS NOT NULL GROUP BY value HAVING count(*) > 1
  ) AS r
), rows_ AS (
  SELECT count(*) FILTER (WHERE `l0` IS DISTINCT FROM value) AS unlike,
         count(*) - count(value) AS null_rows
  FROM `sqlanon_0a1b2c3d_h0`
)
, s1 AS (
  SELECT `l1`, `l2`, `l3` FROM `we"ird; col` WHERE c > 0
)
, s2 AS (
  SELECT `l2`, `l3`
  FROM s1
  GROUP BY `l2`, `l3`
)
SELECT repeated.n, rows_.unlike, rows_.null_rows,
       (SELECT count(*) FROM (
         SELECT `l1` FROM s1 GROUP BY `l1` HAVING count(*) > 1
         UNION ALL
         SELECT `l2` FROM s2 GROUP BY `l2` HAVING count(*) > 1
       ) AS f),
       (SELECT count(*) FROM s1 WHERE `l1` IS NULL OR `l2` IS NULL OR `l3` IS NULL)
FROM repeated CROSS JOIN rows_
-- bind parameters: []

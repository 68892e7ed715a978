-- release_kinds: the rows a generalization releases, as a multiset in random order. One row per distinct
-- released row (its copied columns and quasi-identifier labels) with n, how many rows it stands for; the write
-- (write_kinds) repeats each n times. Rows are grouped on the hierarchy codes of the chosen levels (where the
-- engine's joins cost more than grouping, on their own values first: GROUPS_BEFORE_LOOKUPS) and labelled
-- last, so labels are joined to combinations, not to every row. The grouping keeps no trace of the source's order, and the kinds are stored shuffled by a salted hash
-- of their content (unsorted matching attack, seed 002): the released order says nothing about the source's,
-- yet only the kinds are sorted, not every row (benchmarks/README.md). Classes listed in `failing` are left
-- out, or masked.
-- Where the source is grouped already (counted), a quasi-identifier at level 0 is grouped on its own values and
-- looked up after the grouping, on the kinds: its level-0 code and label stand for one value each, so the kinds
-- are the same, and each lookup is joined to fewer rows (PostgreSQL at 10 M rows, seven of eight at level 0:
-- 1.74 M grouped rows, 706,680 kinds; the statement 5.6 -> 4.3 s).
-- context: table (new scratch table), source, columns [{name, qi_index or none}], qis [{column, coded, level}],
--          failing (temp table of failing class keys), mask (bool), basic (bool), salt (int: shuffle_key),
--          counted (where the source is grouped already, group_source_rows.sql.j2: its count column; else none)
-- columns: o{i} (copied column i), q{j} (label of quasi-identifier j), n
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_kinds" AS
WITH source_rows AS (
  -- the rows read once; where the engine's joins cost more than grouping (GROUPS_BEFORE_LOOKUPS), grouped on
  -- their own values, so that the lookups are joined to combinations (by the preparation already: counted)
  SELECT
    src."age" AS c0,
    src."we""ird; col" AS c1,
    src."diagnosis" AS o1,
    src."sqlanon_rows" AS n
  FROM "sqlanon_0a1b2c3d_gr" AS src
), grouped AS (
  SELECT
    source_rows.o1,
    h0."g2" AS k0,
    source_rows.c1 AS v1,
    CAST(sum(source_rows.n) AS BIGINT) AS n
  FROM source_rows
  JOIN "sqlanon_0a1b2c3d_c0" AS h0 ON h0.match_key = CASE WHEN source_rows.c0 IS NULL THEN 'N' ELSE 'V' || CAST(source_rows.c0 AS VARCHAR) END
  GROUP BY 1, 2, 3
), coded AS (
  -- the quasi-identifiers grouped on their values (level 0) looked up now: their code and label
  SELECT grouped.*, r1."g0" AS k1, r1."l0" AS r1
  FROM grouped
  JOIN "sqlanon_0a1b2c3d_c1" AS r1 ON r1.match_key = CASE WHEN grouped.v1 IS NULL THEN 'N' ELSE 'V' || CAST(grouped.v1 AS VARCHAR) END
), labels0 AS (
  SELECT DISTINCT "g2" AS g, "l2" AS l FROM "sqlanon_0a1b2c3d_c0"
)
SELECT *
FROM (
  SELECT
    CASE WHEN f.k0 IS NOT NULL THEN CAST(%s AS VARCHAR) ELSE labels0.l END AS q0,
    coded.o1,
    CASE WHEN f.k0 IS NOT NULL THEN CAST(%s AS VARCHAR) ELSE coded.r1 END AS q1,
    coded.n
  FROM coded
  JOIN labels0 ON labels0.g = coded.k0
  LEFT JOIN "sqlanon_0a1b2c3d_fail" AS f
    ON f.k0 = coded.k0 AND f.k1 = coded.k1
) AS kinds
-- A collision of the 64-bit key leaves two kinds' order to the engine: about 1 in 10^5 runs at 10^7 kinds.
ORDER BY hashtextextended(CAST(ROW(q0, o1, q1, n) AS TEXT), CAST(%s AS BIGINT))
-- bind parameters: ['*', '*', 42]

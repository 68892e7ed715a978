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
    src."pct%col" AS c1,
    src."length_of_stay" AS o2,
    src."sqlanon_rows" AS n
  FROM "sqlanon_0a1b2c3d_gr" AS src
  WHERE src."age" IS NOT NULL AND src."pct%col" IS NOT NULL
), grouped AS (
  SELECT
    source_rows.o2,
    h0."g1" AS k0,
    h1."g3" AS k1,
    CAST(sum(source_rows.n) AS BIGINT) AS n
  FROM source_rows
  JOIN "sqlanon_0a1b2c3d_c0" AS h0 ON CAST(source_rows.c0 AS VARCHAR) IS NOT DISTINCT FROM h0.value
  JOIN "sqlanon_0a1b2c3d_c1" AS h1 ON CAST(source_rows.c1 AS VARCHAR) IS NOT DISTINCT FROM h1.value
  GROUP BY 1, 2, 3
), coded AS (
  SELECT grouped.*
  FROM grouped
), labels0 AS (
  SELECT DISTINCT "g1" AS g, "l1" AS l FROM "sqlanon_0a1b2c3d_c0"
), labels1 AS (
  SELECT DISTINCT "g3" AS g, "l3" AS l FROM "sqlanon_0a1b2c3d_c1"
)
SELECT *
FROM (
  SELECT
    CASE WHEN f.k0 IS NOT NULL THEN CAST(? AS VARCHAR) ELSE labels1.l END AS q1,
    CASE WHEN f.k0 IS NOT NULL THEN CAST(? AS VARCHAR) ELSE labels0.l END AS q0,
    coded.o2,
    coded.n
  FROM coded
  JOIN labels0 ON labels0.g = coded.k0
  JOIN labels1 ON labels1.g = coded.k1
  LEFT JOIN "sqlanon_0a1b2c3d_fail" AS f
    ON f.k0 = coded.k0 AND f.k1 = coded.k1
) AS kinds
-- A collision of the 64-bit key leaves two kinds' order to the engine: about 1 in 10^5 runs at 10^7 kinds.
ORDER BY hash(CAST(? AS BIGINT), q1, q0, o2, n)
-- bind parameters: ['*', '*', 42]

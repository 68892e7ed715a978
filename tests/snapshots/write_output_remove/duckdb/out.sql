-- write_output: the anonymized table under a temporary name. Quasi-identifiers are generalized through the
-- lookup tables (extended match), records of classes that fail the privacy models are removed or masked,
-- identifier/ignore columns are dropped, the rest is copied. Rows in random order (unsorted matching attack).
-- context: table (new table parts), source, columns [{name, qi_index or none}], qis [{column, coded, level}],
--          k, mask (bool), basic (bool)
CREATE TABLE "analytics"."sqlanon_tmp_0123456789ab" AS
WITH generalized AS (
  SELECT
    src."diagnosis" AS o1,
    h0."l2" AS q0,
    h1."l0" AS q1,
    1 AS one
  FROM "analytics"."we""ird; col" AS src
  JOIN "sqlanon_0a1b2c3d_c0" AS h0 ON CAST(src."age" AS VARCHAR) IS NOT DISTINCT FROM h0.value
  JOIN "sqlanon_0a1b2c3d_c1" AS h1 ON CAST(src."we""ird; col" AS VARCHAR) IS NOT DISTINCT FROM h1.value
), classified AS (
  SELECT generalized.*,
         count(*) OVER (PARTITION BY q0, q1) AS class_size
  FROM generalized
)
SELECT
  q0 AS "age",
  o1 AS "diagnosis",
  q1 AS "we""ird; col"
FROM classified
WHERE class_size >= ?
ORDER BY random()
-- bind parameters: [5]

-- verify_output: independent re-check of a written table, from its own contents only.
-- Classes are the groups of equal quasi-identifier values (GROUP BY groups NULLs: extended match).
-- In mask mode the class whose quasi-identifiers are all '*' holds the suppressed records.
-- context: table (parts), qis (column names), k
-- columns: rows, classes, smallest class (excluding the all-'*' class), classes below k (same), all-'*' rows
SELECT coalesce(sum(s), 0),
       count(*),
       min(CASE WHEN NOT all_star THEN s END),
       count(CASE WHEN NOT all_star AND s < ? THEN 1 END),
       coalesce(sum(CASE WHEN all_star THEN s END), 0)
FROM (
  SELECT count(*) AS s,
         coalesce("age" = ? AND "we""ird; col" = ? AND "pct%col" = ?, FALSE) AS all_star
  FROM "analytics"."patients_k5"
  GROUP BY "age", "we""ird; col", "pct%col"
) AS classes
-- bind parameters: [5, '*', '*', '*']

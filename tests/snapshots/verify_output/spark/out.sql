-- verify_output: independent re-check of a written table, from its own contents only.
-- Classes are the groups of equal quasi-identifier values (GROUP BY groups NULLs: extended match).
-- In mask mode the class whose quasi-identifiers are all '*' holds the suppressed records.
-- One pass gives the class-size distribution; verify.py derives rows, classes, the smallest class and the
-- classes below k from it (the report's histogram comes from the same pass).
-- context: table (parts), qis (column names), starred (the quasi-identifiers are text that may be '*'; a
--          method releasing numbers has no all-'*' class)
-- columns: class size, is the all-'*' class, number of classes
SELECT s, all_star, count(*)
FROM (
  SELECT count(*) AS s,
         coalesce(`age` = ? AND `we"ird; col` = ? AND `pct%col` = ?, FALSE) AS all_star
  FROM `analytics`.`patients_k5`
  GROUP BY `age`, `we"ird; col`, `pct%col`
) AS classes
GROUP BY s, all_star
ORDER BY s, all_star
-- bind parameters: ['*', '*', '*']

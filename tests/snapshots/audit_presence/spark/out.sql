-- audit_presence: delta-presence range of a research subset (`table`) against its population (`population`,
-- same quasi-identifier columns). Classes are taken over the union of both tables (GROUP BY: NULL is a value
-- of its own); no join, so PostgreSQL needs no hashable match key. `flag` is a column alias chosen by the
-- caller to differ from every quasi-identifier name.
-- context: table (parts), population (parts), qis, flag
-- columns: classes of the subset, delta_min, delta_max, subset classes with no population record,
--          subset classes with more subset than population records, population rows
WITH classes AS (
  SELECT sum(`sqlanon_in_subset`) AS sub, count(*) - sum(`sqlanon_in_subset`) AS pop
  FROM (
    SELECT `age`, `we"ird; col`, 1 AS `sqlanon_in_subset` FROM `analytics`.`we"ird; col`
    UNION ALL
    SELECT `age`, `we"ird; col`, 0 FROM `census`.`pct%col`
  ) AS u
  GROUP BY `age`, `we"ird; col`
)
SELECT count(CASE WHEN sub > 0 THEN 1 END),
       min(CASE WHEN sub > 0 AND pop > 0 THEN CAST(sub AS DOUBLE) / CAST(pop AS DOUBLE) END),
       max(CASE WHEN sub > 0 AND pop > 0 THEN CAST(sub AS DOUBLE) / CAST(pop AS DOUBLE) END),
       count(CASE WHEN sub > 0 AND pop = 0 THEN 1 END),
       count(CASE WHEN sub > pop AND pop > 0 THEN 1 END),
       coalesce(sum(pop), 0)
FROM classes
-- bind parameters: []

-- check_table: k-anonymity measurements of an existing table (NULL-aware: NULLs form their own values).
-- context: table (parts), qis (column names), k
-- columns: rows, classes, smallest class, largest class, classes below k, records below k, rows with a NULL QI
SELECT coalesce(sum(s), 0), count(*), min(s), max(s),
       count(CASE WHEN s < ? THEN 1 END),
       coalesce(sum(CASE WHEN s < ? THEN s END), 0),
       coalesce(sum(CASE WHEN has_null THEN s END), 0)
FROM (
  SELECT count(*) AS s,
`age` IS NULL OR `we"ird; col` IS NULL OR `pct%col` IS NULL AS has_null
  FROM `public`.`patients_k5`
  GROUP BY `age`, `we"ird; col`, `pct%col`
) AS classes
-- bind parameters: [5, 5]

-- audit_source_keys: whether a key column identifies the rows of a table (sqlanon check --source/--key matches
-- the released table's rows with its source's on it, one to one).
-- context: table (parts), key
-- columns: rows, rows with a NULL key, key values held by more than one row, the smallest such value (as text)
SELECT (SELECT count(*) FROM `analytics`.`we"ird; col`),
       (SELECT count(*) FROM `analytics`.`we"ird; col` WHERE `pct%col` IS NULL),
       count(*), CAST(min(k) AS STRING)
FROM (
  SELECT `pct%col` AS k
  FROM `analytics`.`we"ird; col`
  WHERE `pct%col` IS NOT NULL
  GROUP BY `pct%col`
  HAVING count(*) > 1
) AS duplicated
-- bind parameters: []

-- count_duplicate_keys: rows of a table whose key another row has too (or is NULL): a record's root, a parent a
-- child refers to, or a lookup row must be one row.
-- context: parts, key
SELECT count(*) - count(DISTINCT `pct%col`) FROM `analytics`.`we"ird; col`
-- bind parameters: []

-- count_rows: records of the source, and those with a NULL in some quasi-identifier where asked (basic match
-- removes them; extended match keeps them, and a bare count(*) is read from DuckDB's row group metadata, far
-- faster than a scan).
-- context: source, qis (column names), nulls (count the records with a NULL quasi-identifier)
-- columns: total[, with_null]
SELECT count(*)
FROM `analytics`.`we"ird; col`
-- bind parameters: []

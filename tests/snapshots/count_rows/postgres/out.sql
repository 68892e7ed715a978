-- count_rows: records of the source, and those with a NULL in some quasi-identifier where asked (basic match
-- removes them; extended match keeps them, and a bare count(*) is read from DuckDB's row group metadata, far
-- faster than a scan). With `counted`, the source is the source's rows grouped (group_source_rows.sql.j2), each
-- row standing for that many records: their sums are the same counts, without another pass over the source.
-- context: source, qis (column names), nulls (count the records with a NULL quasi-identifier), counted
--          (optional: the grouped rows' count column)
-- columns: total[, with_null]
SELECT count(*)
     , count(*) FILTER (WHERE "age" IS NULL OR "we""ird; col" IS NULL)
FROM "analytics"."we""ird; col"
-- bind parameters: []

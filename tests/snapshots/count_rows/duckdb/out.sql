-- count_rows: records of the source, and those with a NULL in some quasi-identifier.
-- context: source, qis (column names)
-- columns: total, with_null
SELECT count(*),
       count(*) FILTER (WHERE "age" IS NULL OR "we""ird; col" IS NULL)
FROM "analytics"."we""ird; col"
-- bind parameters: []

-- group_source_rows: the source's rows grouped on every column a run reads (its quasi-identifiers, the columns
-- it releases and the sensitive attributes with models), with how many rows each distinct row stands for. Where
-- the engine groups before joining lookups (GROUPS_BEFORE_LOOKUPS), the frequency set's build and the release's
-- kinds would each group every row of the source; both read this table instead, so the source is grouped once
-- (benchmarks/README.md). It holds raw values: a scratch table, removed at the session's end.
-- context: table (new scratch table), source, columns (column names), counted (the count column's name)
-- columns: the named columns, then counted
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_gr" AS
SELECT "age", "we""ird; col", "diagnosis", count(*) AS "sqlanon_rows"
FROM "analytics"."we""ird; col"
GROUP BY "age", "we""ird; col", "diagnosis"
-- bind parameters: []

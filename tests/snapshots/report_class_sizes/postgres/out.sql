-- report_class_sizes: the equivalence-class size distribution of a written table (NULL is a value).
-- context: table (parts), qis
-- columns: class size, number of classes of that size
SELECT s, count(*)
FROM (
  SELECT count(*) AS s
  FROM "analytics"."we""ird; col"
  GROUP BY "age", "we""ird; col", "pct%%col"
) AS classes
GROUP BY s
ORDER BY s
-- bind parameters: []

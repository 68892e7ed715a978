-- find_tables_read: every relation a view reads, through views it reads in turn (pg_depend's edges from a
-- view's rewrite rule to the relations the rule references), as exact schema and name.
-- context: regclass (the view's name as quoted text)
-- columns: schema, name
WITH RECURSIVE read_by(oid) AS (
  SELECT to_regclass(%s::text)
  UNION
  SELECT d.refobjid
  FROM read_by
  JOIN pg_rewrite AS r ON r.ev_class = read_by.oid
  JOIN pg_depend AS d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
    AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> r.ev_class
)
SELECT n.nspname::text, c.relname::text
FROM read_by JOIN pg_class AS c ON c.oid = read_by.oid JOIN pg_namespace AS n ON n.oid = c.relnamespace
WHERE read_by.oid <> to_regclass(%s::text)
ORDER BY 1, 2
-- bind parameters: ['"analytics"."we""ird; col"', '"analytics"."we""ird; col"']

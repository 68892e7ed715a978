-- find_dependants: what would stop a DROP TABLE of an existing table (without CASCADE): views that read it
-- and foreign keys of other tables that reference it.
-- context: table (exact parts schema, name)
-- columns: dependant (display text), kind
SELECT DISTINCT quote_ident(vn.nspname) || '.' || quote_ident(v.relname), 'view'
FROM pg_depend AS d
JOIN pg_rewrite AS r ON r.oid = d.objid
JOIN pg_class AS v ON v.oid = r.ev_class
JOIN pg_namespace AS vn ON vn.oid = v.relnamespace
WHERE d.classid = 'pg_rewrite'::regclass AND d.refobjid = to_regclass(%s::text)
  AND v.oid <> d.refobjid
UNION
SELECT DISTINCT quote_ident(tn.nspname) || '.' || quote_ident(t.relname), 'foreign key'
FROM pg_constraint AS k
JOIN pg_class AS t ON t.oid = k.conrelid
JOIN pg_namespace AS tn ON tn.oid = t.relnamespace
WHERE k.contype = 'f' AND k.confrelid = to_regclass(%s::text) AND k.conrelid <> k.confrelid
ORDER BY 1
-- bind parameters: ['"analytics"."we""ird; col"', '"analytics"."we""ird; col"']

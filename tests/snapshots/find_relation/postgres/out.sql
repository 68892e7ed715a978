-- find_relation: the relation a (case-folded, quoted) name resolves to through the search_path, as the
-- server itself resolves it (to_regclass), and the schema a CREATE TABLE of that name would use.
-- context: regclass (the name as quoted text), schema (the given schema, or none for current_schema())
-- columns: current database, current schema, relkind, schema, name, owned (may be dropped by this role),
--          target schema exists, CREATE allowed in the target schema
SELECT current_database()::text, current_schema()::text, c.relkind::text, n.nspname::text, c.relname::text,
       CASE WHEN c.oid IS NOT NULL THEN pg_has_role(c.relowner, 'USAGE') END,
       s.oid IS NOT NULL,
       CASE WHEN s.oid IS NOT NULL THEN has_schema_privilege(s.oid, 'CREATE') END
FROM (SELECT 1) AS one
LEFT JOIN pg_class AS c ON c.oid = to_regclass(%s::text)
LEFT JOIN pg_namespace AS n ON n.oid = c.relnamespace
LEFT JOIN pg_namespace AS s ON s.nspname = coalesce(CAST(%s AS text), current_schema())
-- bind parameters: ['"analytics"."we""ird; col"', 'analytics']

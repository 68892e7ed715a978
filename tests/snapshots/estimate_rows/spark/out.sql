-- estimate_rows: the planner's estimate of a table's (or a view's) rows, without reading them: from its
-- statistics where ANALYZE or autovacuum ran, else from its size on disk. PostgreSQL's syntax: only
-- PostgresAdapter.estimated_rows runs it, to size the work_mem of the source's grouping, whose rows then give
-- the exact count (preparation.py).
-- context: source (parts)
-- columns: the plan as JSON
EXPLAIN (FORMAT STRING) SELECT * FROM `analytics`.`we"ird; col`
-- bind parameters: []

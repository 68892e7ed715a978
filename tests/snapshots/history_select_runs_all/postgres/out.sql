-- select_runs: runs, newest first; either all (up to limit) or those whose id starts with a prefix.
-- context: schema, columns, prefix (None for all), limit
SELECT "run_id", "status"
FROM "we""ird; col"."runs"
ORDER BY started_at DESC, run_id
LIMIT %s
-- bind parameters: [20]

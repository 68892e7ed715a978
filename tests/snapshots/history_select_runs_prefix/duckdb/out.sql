-- select_runs: runs, newest first; either all (up to limit) or those whose id starts with a prefix.
-- context: schema, columns, prefix (None for all), limit
SELECT "run_id", "pct%col"
FROM "we""ird; col"."runs"
WHERE substr(run_id, 1, ?) = ?
ORDER BY started_at DESC, run_id
LIMIT ?
-- bind parameters: [4, '0a1b', 2]

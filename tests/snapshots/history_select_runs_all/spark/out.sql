-- select_runs: Spark's form of sql/common/history/select_runs.sql.j2. Spark's tables take no UPDATE, so a run
-- that ended has two rows, the one inserted when it started and the one of its end (history/runs.py): each
-- run is read as its latest row, a finished one over the running one.
-- context: schema, columns, prefix (run id prefix or none), limit
SELECT `run_id`, `status`
FROM (
  SELECT *, row_number() OVER (PARTITION BY run_id ORDER BY finished_at IS NULL, finished_at DESC) AS row_rank
  FROM `we"ird; col`.`runs`
) AS latest
WHERE row_rank = 1
ORDER BY started_at DESC, run_id
LIMIT ?
-- bind parameters: [20]

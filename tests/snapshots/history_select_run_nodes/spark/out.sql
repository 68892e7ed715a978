-- select_run_nodes: the per-node search results of one run (when they were stored).
-- context: schema, run_id
SELECT levels, state, metric FROM `we"ird; col`.`run_nodes` WHERE run_id = ? ORDER BY levels
-- bind parameters: ['0a1b']

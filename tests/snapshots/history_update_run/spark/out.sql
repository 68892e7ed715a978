-- update_run: set columns of one run.
-- context: schema, run_id, values (column -> value)
UPDATE `we"ird; col`.`runs`
SET `status` = ?, `error` = ?
WHERE run_id = ?
-- bind parameters: ['failed', "it's; broken", '0a1b2c3d4e5f6a7b']

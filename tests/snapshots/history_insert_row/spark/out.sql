-- insert_row: one row of a history table; values are bind parameters.
-- context: schema, table, values (column -> value)
INSERT INTO `we"ird; col`.`runs` (`run_id`, `status`, `pid`, `config_json`)
VALUES (?, ?, ?, ?)
-- bind parameters: ['0a1b2c3d4e5f6a7b', 'running', 42, '{"k": 5}']

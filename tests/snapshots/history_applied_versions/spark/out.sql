-- applied_versions: versions recorded in the history schema's version table.
-- context: schema
SELECT version FROM `we"ird; col`.`run_history_version` ORDER BY version
-- bind parameters: []

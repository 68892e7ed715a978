-- record_version: one applied migration.
-- context: schema, version, name, applied_at, sqlanon_version
INSERT INTO `we"ird; col`.`run_history_version` (version, name, applied_at, sqlanon_version)
VALUES (?, ?, ?, ?)
-- bind parameters: [2, 'process_report_nodes', '2026-11-22 02:00:00', '0.1.0']

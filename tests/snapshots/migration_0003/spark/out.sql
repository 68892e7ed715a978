-- 0003: which anonymization method a run used, and the method's own figures as JSON (generalization's still
-- have their columns too: transformation_json, nodes_evaluated, ...). Runs recorded before this version have
-- NULL in both: every one of them was a generalization run (the reader says so).
-- context: schema
ALTER TABLE `we"ird; col`.`runs` ADD COLUMN method STRING;
ALTER TABLE `we"ird; col`.`runs` ADD COLUMN details_json STRING;
-- bind parameters: []

-- assign_records: move records into group `group`: one record (rid), every rare record not yet grouped
-- (rest_of_rare), or every record of group `merge` (merging two groups); with `group` none and `common_of`
-- a group id, the records of that group whose value is not rare go back to the records not yet grouped.
-- context: table (the standardized records), group, rid, rest_of_rare, merge, common_of
-- columns: none
UPDATE `sqlanon_0a1b2c3d_mz` SET grp = NULL
WHERE grp = ? AND NOT rare
-- bind parameters: [1125899906842624]

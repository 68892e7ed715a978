-- describe_sensitive_records: figures of some records' sensitive values: of group `group` (which 'group'), of
-- the rare records not yet grouped ('rare_left'), or of every record not suppressed ('all'): how many, how many
-- distinct values (NULL counts as one), and the population variance (NULLs left out; NULL when none is left).
-- context: table (the standardized records), which, group
-- columns: records, distinct values, var_pop
SELECT count(*), count(DISTINCT s) + max(CASE WHEN s IS NULL THEN 1 ELSE 0 END), var_pop(s)
FROM `sqlanon_0a1b2c3d_mz`
WHERE grp IS NULL AND rare
-- bind parameters: []

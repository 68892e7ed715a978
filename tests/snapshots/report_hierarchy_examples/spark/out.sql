-- report_hierarchy_examples: a few (original, generalized) pairs of a hierarchy at one level, one per
-- generalized label (hierarchy rows only: configuration data, not table rows; so from the table with every row
-- of the hierarchy, not the coded one, which may hold only the values of the data).
-- context: table (lookup table with every hierarchy row), level, limit
SELECT min(value), `l2`
FROM `sqlanon_0a1b2c3d_h0`
GROUP BY `l2`
ORDER BY min(value) NULLS LAST
LIMIT ?
-- bind parameters: [5]

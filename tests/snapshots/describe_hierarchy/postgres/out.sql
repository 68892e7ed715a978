-- describe_hierarchy: facts about a raw hierarchy needed before encoding.
-- context: lookup, height
-- columns: leaves (non-NULL rows as written), null_rows, top_labels (distinct non-NULL labels at the top level), top_label
SELECT count(value),
       count(*) - count(value),
       count(DISTINCT "l2"),
       min("l2")
FROM "sqlanon_0a1b2c3d_h0"
-- bind parameters: []

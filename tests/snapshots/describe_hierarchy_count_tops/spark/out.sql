-- describe_hierarchy: facts about a raw hierarchy needed before encoding.
-- context: lookup, height, sequences (optional: the lookup's label sequences, label_sequences.sql.j2, whose
--          rows are fewer and tell the same), count_tops (count the distinct top labels: only needed when there
--          are several, which the first pass tells without count(DISTINCT), most of this query's time on a large
--          hierarchy on PostgreSQL; describe_lookup in sqlanon/hierarchy/loading.py)
-- columns: leaves (non-NULL rows as written), null_rows, top_labels (distinct non-NULL labels at the top level;
--          without count_tops NULL when there are several), top_label
SELECT count(value),
       count(*) - count(value),
       count(DISTINCT `l1`),
       min(`l1`)
FROM `we"ird; col`
-- bind parameters: []

-- describe_slices: how evenly each candidate slicing splits the code table's rows (slicing.py). The slicings
-- are the prefixes of `levels`: the rows are counted once per combination of all their codes (few), and each
-- prefix's slices are sums of those counts.
-- context: table (the code table), levels ([{qi, level}], in the order they would be added)
-- columns: grouping (GROUPING() of all columns: 2^(n - m) - 1 for the prefix of m columns), rows of the largest
--          slice, rows
WITH combinations AS (
  SELECT q3_4, q0_2, q1_1, count(*) AS c
  FROM `we"ird; col`
  GROUP BY q3_4, q0_2, q1_1
)
SELECT grouping_id, max(c) AS largest, sum(c) AS total
FROM (
  SELECT GROUPING(q3_4, q0_2, q1_1) AS grouping_id, sum(c) AS c
  FROM combinations
  GROUP BY GROUPING SETS ((q3_4), (q3_4, q0_2), (q3_4, q0_2, q1_1))
) AS slices
GROUP BY grouping_id
-- bind parameters: []

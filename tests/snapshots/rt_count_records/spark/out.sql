-- count_records: the root table's rows, the records with at least one node, the most paths a record has, how
-- many records have paths of different lengths (only theirs can become a proper prefix of one another under a
-- cut, which projects a path to one of its own length: project_paths.sql.j2's `uneven`), and the most nodes a
-- record's paths have together (a bound on the nodes, so the leaves, of its tree under any cut and after any
-- disassociation: both map each node to one node).
-- context: root (the first chain table), paths
WITH per_record AS (
  SELECT count(*) AS paths, min(cardinality(path)) AS shortest, max(cardinality(path)) AS longest,
         sum(cardinality(path)) AS nodes
  FROM `sqlanon_0a1b2c3d_rp0` GROUP BY rid
)
SELECT (SELECT count(DISTINCT rid) FROM `sqlanon_0a1b2c3d_rch0`), (SELECT count(*) FROM per_record),
       (SELECT max(paths) FROM per_record), (SELECT count(*) FROM per_record WHERE shortest < longest),
       (SELECT max(nodes) FROM per_record)
-- bind parameters: []

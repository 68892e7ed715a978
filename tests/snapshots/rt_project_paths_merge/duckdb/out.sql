-- project_paths: records' paths as trees: through a cut's map when one is given (each node relabelled), then
-- each record's distinct paths, less those that are a proper prefix of another of its paths (siblings that
-- became equal merged: the paths of a tree are its root-to-leaf label paths, nothing shorter).
-- context: table (new), paths (rid, path), map (none, or create_cut_map.sql.j2's table)
-- columns: rid, path
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rmerged" AS
WITH projected AS (
  SELECT DISTINCT rid, path FROM "sqlanon_0a1b2c3d_rsd"
), proper_prefixes AS (
  SELECT DISTINCT q.rid, q.path[1:g.l] AS path
  FROM projected AS q CROSS JOIN LATERAL generate_series(1, CAST(cardinality(q.path) AS INTEGER) - 1) AS g(l)
)
SELECT rid, path FROM projected
EXCEPT
SELECT rid, path FROM proper_prefixes
-- bind parameters: []

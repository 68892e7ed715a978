-- project_paths: records' paths as trees: through a cut's map when one is given (each node relabelled), then
-- each record's distinct paths, less those that are a proper prefix of another of its paths (siblings that
-- became equal merged: the paths of a tree are its root-to-leaf label paths, nothing shorter).
-- The map is joined once per position of a path (at most `depth`), not to every unnested node: one hash join
-- per position and no regrouping into arrays, several times faster on large forests. A path of `depth` nodes
-- is no proper prefix of anything, so only shorter ones are looked for among their record's paths.
-- A cut projects a path to one of its own length, so where no record of the source has paths of two lengths
-- (`uneven` false: count_records.sql.j2), no projected path is a prefix of another and none is looked for.
-- context: table (new), paths (rid, path), map (none, or create_cut_map.sql.j2's table), depth (the longest
--          path's nodes), only (optional: a table of the rids to project, the others are left out), holding
--          (optional, with a map: (items, node), only the records holding the label node in items, a table of
--          (rid, item)), uneven (optional, true by default: whether to look for prefixes)
-- columns: rid, path
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rpc" AS
WITH projected AS (
  SELECT DISTINCT p.rid,
         (ARRAY[m1.gen, m2.gen, m3.gen])[1:cardinality(p.path)] AS path
  FROM "sqlanon_0a1b2c3d_rp0" AS p
  LEFT JOIN "sqlanon_0a1b2c3d_rmap" AS m1 ON m1.leaf = p.path[1]
  LEFT JOIN "sqlanon_0a1b2c3d_rmap" AS m2 ON m2.leaf = p.path[2]
  LEFT JOIN "sqlanon_0a1b2c3d_rmap" AS m3 ON m3.leaf = p.path[3]
)
SELECT q.rid, q.path FROM projected AS q
WHERE cardinality(q.path) >= 3
   OR NOT EXISTS (SELECT 1 FROM projected AS r
                  WHERE r.rid = q.rid AND cardinality(r.path) > cardinality(q.path)
                    AND (r.path)[1:cardinality(q.path)] = q.path)
-- bind parameters: []

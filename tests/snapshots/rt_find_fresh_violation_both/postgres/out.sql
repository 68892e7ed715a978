-- find_fresh_violation: whether the specialization of a cut at `fresh`, a node it replaced by its children, has a
-- violation among the combinations of `size` labels: a combination (X, R) of labels and a set R of relations
-- between them (given by `masks`) that some but fewer than k records hold. Mask 0, the empty R, is the value
-- check (k^m of the labels alone); the others, 1 to n relations, the structure's (only asked of a cut that
-- passed without a disassociation).
-- Only the combinations holding one of the new labels can have one (every other keeps its support), and only
-- the records that had `fresh` hold those, so `items` holds only them (create_holder_labels.sql.j2, or
-- create_tree_labels.sql.j2 with fresh). Such an X is generated once per record from its smallest new label,
-- then the others in id order (fewer rows than every X filtered); whether two labels of X are related is read
-- from the lower id's `below` (ids follow the classes: an ancestor has the lower id). Records are first counted
-- per (X, relations present): many hold the same, and only then is each count spread over the relation sets R
-- it contains.
-- FixStructure's own check is structure_check.sql.j2.
-- With `path_bits`, two labels are related when the paths they are on intersect (`on_paths`, see
-- create_holder_labels.sql.j2): a bitwise AND per pair instead of an array search (size 3 at TPC-H scale factor
-- 0.1: benchmarks/README.md).
-- context: items (rid, item, fresh, below or on_paths), k, masks ({size: [masks of 0..n bits]}), size,
--          path_bits (optional)
-- returns: the smallest mask of a violating combination (0: a value violation), or no row
SELECT ms.mask
FROM (
  SELECT x0, x1, present, count(*) AS records
  FROM (
    SELECT i0.item AS x0, i1.item AS x1, (CASE WHEN (i0.on_paths & i1.on_paths) <> 0 THEN 1 ELSE 0 END) AS present
    FROM "sqlanon_0a1b2c3d_rfitems" AS i0
    JOIN "sqlanon_0a1b2c3d_rfitems" AS i1 ON i1.rid = i0.rid AND i1.item <> i0.item AND (NOT i1.fresh OR i1.item > i0.item)
    WHERE i0.fresh
  ) AS rows_held
  GROUP BY x0, x1, present
) AS held
JOIN (VALUES (0), (1)) AS ms(mask)
  ON (held.present & ms.mask) = ms.mask
GROUP BY held.x0, held.x1, ms.mask
HAVING sum(held.records) < %s
ORDER BY ms.mask
LIMIT 1
-- bind parameters: [20]

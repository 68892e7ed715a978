-- structure_check: FixStructure's check (seed 003, Algorithm 3), kept up to date from round to round instead of
-- recomputed over every tree. A combination (X, R) of up to m labels and 1 to n relations between them violates
-- when some but fewer than k records hold it. Every (X, R) a record holds is generated once per record: X in
-- id order (x0 < x1 < ...; -1 past the combination's size, a plain key), R as a bitmask over X's pairs (p, q),
-- p < q, numbered in that order; whether two labels are related is read from the upper one's `below`.
-- Statements (`what`):
-- * 'held' creates `table` (or, with `insert`, adds to it): per size, X and the relations present among X, with
--   the records holding them (trees weighted by `weights`), over the trees of `items` (or of `only` among
--   them), counted with `sign`. fix_structure keeps `held` summing to the supports of the current trees: a
--   round's rewritten trees are counted once with -1 (their labels before) and once with +1 (after), in a
--   delta table first;
-- * 'affected' creates `affected`: the X of the delta (their supports may have moved);
-- * 'merge' adds the delta to `held`;
-- * 'violations' creates `violations`: every violating (X, R) from `held`; with `affected`, instead replaces
--   the rows of those X ('unviolate' deletes them first). The supports of other X did not change, so neither
--   did whether they violate;
-- * 'rules': the relations of the violating R's, with the records holding each, fewest first (then the lowest
--   ids; cuts.py takes the first, and with it others that commute with those taken), at most `limit`. One
--   global order over all violations (the paper's nested order over X, then R, is one of many;
--   docs/related_tables.md). A relation a ~> b is the combination ({a, b}, {a ~> b}) of size 2 (a, the upper
--   label, has the lower id: a lower class has the lower ids), so the records holding it are `held`'s count of
--   that key, read from its few thousand rows instead of joining every tree's labels twice.
-- context: what, table, held, violations, affected, delta (table names), items (create_tree_labels.sql.j2's:
--          rid, item, below, or on_paths with path_bits), only (none or a table of rids), sign (1 or -1),
--          insert, weights (rid, weight; none: each tree is one record's), m, k, masks ({size: [masks of 1..n
--          bits]}), limit, path_bits (optional: labels related by their paths' bits, see
--          create_tree_labels.sql.j2)
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_rviol" AS
SELECT h.size, h.x0, h.x1, h.x2, ms.mask
FROM "sqlanon_0a1b2c3d_rheld" AS h
JOIN (VALUES (2, 1), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5), (3, 6)) AS ms(size, mask)
  ON ms.size = h.size AND (h.present & ms.mask) = ms.mask
GROUP BY h.size, h.x0, h.x1, h.x2, ms.mask
HAVING sum(h.weight) > 0 AND sum(h.weight) < %s
-- bind parameters: [20]

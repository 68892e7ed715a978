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
INSERT INTO `sqlanon_0a1b2c3d_rdelta`
SELECT size, x0, x1, x2, present, -sum(weight) AS weight
FROM (
    SELECT 2 AS size, i0.item AS x0, i1.item AS x1, -1 AS x2, (CASE WHEN nullif(array_position(i0.below, i1.item), 0) IS NOT NULL THEN 1 ELSE 0 END) AS present,
           w.weight
    FROM (SELECT * FROM `sqlanon_0a1b2c3d_rtitems` WHERE rid IN (SELECT rid FROM `sqlanon_0a1b2c3d_rholders`)) AS i0
    JOIN `sqlanon_0a1b2c3d_rweights` AS w ON w.rid = i0.rid
    JOIN (SELECT * FROM `sqlanon_0a1b2c3d_rtitems` WHERE rid IN (SELECT rid FROM `sqlanon_0a1b2c3d_rholders`)) AS i1 ON i1.rid = i0.rid AND i1.item > i0.item
    UNION ALL
    SELECT 3 AS size, i0.item AS x0, i1.item AS x1, i2.item AS x2, (CASE WHEN nullif(array_position(i0.below, i1.item), 0) IS NOT NULL THEN 1 ELSE 0 END) + (CASE WHEN nullif(array_position(i0.below, i2.item), 0) IS NOT NULL THEN 2 ELSE 0 END) + (CASE WHEN nullif(array_position(i1.below, i2.item), 0) IS NOT NULL THEN 4 ELSE 0 END) AS present,
           w.weight
    FROM (SELECT * FROM `sqlanon_0a1b2c3d_rtitems` WHERE rid IN (SELECT rid FROM `sqlanon_0a1b2c3d_rholders`)) AS i0
    JOIN `sqlanon_0a1b2c3d_rweights` AS w ON w.rid = i0.rid
    JOIN (SELECT * FROM `sqlanon_0a1b2c3d_rtitems` WHERE rid IN (SELECT rid FROM `sqlanon_0a1b2c3d_rholders`)) AS i1 ON i1.rid = i0.rid AND i1.item > i0.item
    JOIN (SELECT * FROM `sqlanon_0a1b2c3d_rtitems` WHERE rid IN (SELECT rid FROM `sqlanon_0a1b2c3d_rholders`)) AS i2 ON i2.rid = i0.rid AND i2.item > i1.item
) AS rows_held
WHERE present <> 0
GROUP BY size, x0, x1, x2, present
-- bind parameters: []

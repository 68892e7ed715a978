-- count_roots: top-level labels among a sensitive attribute's values (its hierarchy's codes g{height-1}).
-- The hierarchical EMD is convex in the class distribution only under a single root (failing_share).
-- context: domain, height (at least 2)
-- columns: roots
SELECT count(DISTINCT "g2") FROM "sqlanon_0a1b2c3d_d0"
-- bind parameters: []

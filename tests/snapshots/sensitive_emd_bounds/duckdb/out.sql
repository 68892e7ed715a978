-- sensitive_emd_bounds: the largest t-closeness EMD any distribution of a sensitive attribute can have against
-- the table's, scaled like the node queries' emd (failing_share). EMD is convex in the distribution, so its
-- largest value is at a single value v: ordered, the sum over values u of q_u |v - u| (in codes), largest at
-- the first or the last code; hierarchical (single root; emd twice Li's sum), twice the sum over the levels j
-- below the top of the table count outside v's level-j label, n - Q_j(v).
-- context: domain, size (distinct values, codes 1..size), height (of its hierarchy, 0 without one)
-- columns: ordered, hierarchical (NULL below height 2)
SELECT greatest(sum(q * (code - 1)), sum(q * (? - code))) AS ordered,
       (SELECT max(2 * (3 * total - q - "qg1" - "qg2"))
        FROM "sqlanon_0a1b2c3d_d0" CROSS JOIN (SELECT sum(q) AS total FROM "sqlanon_0a1b2c3d_d0") AS n) AS hierarchical
FROM "sqlanon_0a1b2c3d_d0"
-- bind parameters: [9]

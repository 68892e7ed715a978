-- describe_sensitive_domain: facts about a sensitive attribute's values (build_sensitive_domain) that the node
-- queries need.
-- size: distinct values (codes 1..size). roots: top-level labels of its hierarchy; the hierarchical EMD is
-- convex in the class distribution only under a single root (failing_share).
-- ordered, hierarchical: the largest t-closeness EMD any distribution can have against the table's, scaled
-- like the node queries' emd. EMD is convex, so its largest value is at a single value v: ordered, the sum
-- over values u of q_u |v - u| (in codes), largest at the first or the last code; hierarchical (emd twice
-- Li's sum), twice the sum over the levels j below the top of the table count outside v's level-j label,
-- n - Q_j(v).
-- context: domain, height (of its hierarchy, 0 without one)
-- columns: size, roots, ordered, hierarchical (NULL below height 2)
SELECT size, 1,
       greatest(below, size * total - sum_code) AS ordered,
       hierarchical
FROM (
  SELECT count(*) AS size, sum(q) AS total, sum(q * code) AS sum_code, sum(q * (code - 1)) AS below,
         CAST(NULL AS BIGINT) AS hierarchical
  FROM `sqlanon_0a1b2c3d_d1`
  CROSS JOIN (SELECT sum(q) AS total FROM `sqlanon_0a1b2c3d_d1`) AS n
) AS facts
-- bind parameters: []

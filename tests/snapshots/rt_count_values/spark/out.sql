-- count_values: per class, its values (the DGH's level 0).
-- context: dgh
SELECT cls, count(*) FROM `sqlanon_0a1b2c3d_rdgh` WHERE lvl = 0 GROUP BY cls ORDER BY cls
-- bind parameters: []

-- next_seed_record: the first record of the next (k,p,q,r) group: a rare record not yet grouped, in an order
-- drawn from the row id and the seed (integer arithmetic modulo a prime, the same on every engine).
-- context: table (the standardized records), seed (an integer)
-- columns: rid
SELECT rid FROM `sqlanon_0a1b2c3d_mz`
WHERE grp IS NULL AND rare
ORDER BY ((rid * 48271 + ?) % 2147483647) * ((rid * 48271 + ?) % 2147483647) % 2147483647, rid
LIMIT 1
-- bind parameters: [7, 7]

-- mark_rare_values: the records whose sensitive value s is rare, i.e. held by fewer than q * n of the n records
-- ((k,p,q,r)-anonymity, seed 004 Definition 7; q = num / den, compared exactly in integers); with `all_rare`
-- every record (p-sensitive microaggregation builds every group around the sensitive attribute). NULL is a
-- value like any other.
-- context: table (the standardized records, with s and rare), num, den, all_rare
-- columns: none
UPDATE `sqlanon_0a1b2c3d_mz` SET rare = f.c * ? < ? * f.n
FROM (
  SELECT s, count(*) AS c, sum(count(*)) OVER () AS n FROM `sqlanon_0a1b2c3d_mz` WHERE grp IS NULL OR grp <> -1 GROUP BY s
) AS f
WHERE `sqlanon_0a1b2c3d_mz`.s IS NOT DISTINCT FROM f.s
-- bind parameters: [5, 1]

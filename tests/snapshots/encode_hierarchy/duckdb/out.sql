-- encode_hierarchy: integer-code every level of a hierarchy and attach the Loss weight (c - 1) per level.
-- c = number of non-NULL hierarchy rows (as written, duplicates included) carrying the same label
-- at that level (SEMANTICS.md, Loss), divided later by max(N - 1, 1). A NULL cell costs 0 below the top
-- and 1 at the top.
-- context: lookup (raw), coded (new table), height, null_explicit (the hierarchy maps NULL itself)
-- columns: value, match_key, l{j} labels, g{j} codes, w{j} weights
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_c0" AS
SELECT DISTINCT value,
       CASE WHEN value IS NULL THEN 'N' ELSE 'V' || value END AS match_key
     , "l0"
     , CAST(dense_rank() OVER (ORDER BY "l0") AS INTEGER) AS "g0"
     , CAST(CASE WHEN "l0" IS NULL THEN 0
            ELSE greatest(count(value) OVER (PARTITION BY "l0") - 1, 0) END AS BIGINT) AS "w0"
     , "l1"
     , CAST(dense_rank() OVER (ORDER BY "l1") AS INTEGER) AS "g1"
     , CAST(CASE WHEN "l1" IS NULL THEN 0
            ELSE greatest(count(value) OVER (PARTITION BY "l1") - 1, 0) END AS BIGINT) AS "w1"
     , "l2"
     , CAST(dense_rank() OVER (ORDER BY "l2") AS INTEGER) AS "g2"
     , CAST(CASE WHEN "l2" IS NULL THEN 0
            -- an unmapped NULL generalized to the top costs 1 = max(N - 1, 1) / max(N - 1, 1), also when N = 1
            WHEN value IS NULL THEN greatest(count(value) OVER () - 1, 1)
            ELSE greatest(count(value) OVER (PARTITION BY "l2") - 1, 0) END AS BIGINT) AS "w2"
FROM "sqlanon_0a1b2c3d_h0"
-- bind parameters: []

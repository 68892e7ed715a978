-- small_classes: the ids of the classes below k, in id order (one-at-a-time KACA's random choice draws one).
-- context: classes, k
SELECT cid FROM "sqlanon_0a1b2c3d_lrc" WHERE size < %s ORDER BY cid
-- bind parameters: [5]

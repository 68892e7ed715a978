-- add_null_row: extended match without an explicit NULL mapping: NULL stays NULL below the top level
-- and becomes the top value at the top level (SEMANTICS.md).
-- context: lookup, height, top_label (bound)
INSERT INTO `sqlanon_0a1b2c3d_h0` VALUES (NULL, NULL, NULL, NULL, ?)
-- bind parameters: ['*']

-- replace_trees: one step of updating a table of trees (or their relations) in place after a disassociation:
-- `delete` removes the rows of the rewritten trees, else the rows of `rows` are added.
-- context: table, only (rids rewritten), delete (bool), rows (with not delete: a table of the same columns)
INSERT INTO `sqlanon_0a1b2c3d_rrel` SELECT * FROM `sqlanon_0a1b2c3d_radded`
-- bind parameters: []

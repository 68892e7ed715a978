-- create_coded_table: the table encode_hierarchy.sql.j2 creates, empty, for codes computed in Python
-- (hierarchy/encoding.py) and inserted in bulk.
-- context: table, height, parts (optional: a first column `part`, the number of the table each row is for,
--          where several are staged together: split_coded_tables.sql.j2)
-- columns: [part,] value, match_key, then l{j} label, g{j} code, w{j} Loss weight per level
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_c0" (
  value VARCHAR,
  match_key VARCHAR,
  "l0" VARCHAR,
  "g0" INTEGER,
  "w0" INTEGER,
  "l1" VARCHAR,
  "g1" INTEGER,
  "w1" INTEGER,
  "l2" VARCHAR,
  "g2" INTEGER,
  "w2" INTEGER
)
-- bind parameters: []

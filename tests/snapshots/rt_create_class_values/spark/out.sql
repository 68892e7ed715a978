-- create_class_values: the distinct values of one class, in the column's own type, under the attribute's name:
-- what the hierarchy loader reads as its source column (builders such as dates and intervals need the type).
-- context: table (new), chain (a create_chain table holding the class), cls, name, slot (the class's position
--          in the chain's path: a row holds the value when len >= slot)
CACHE TABLE `sqlanon_0a1b2c3d_rv1` AS
SELECT DISTINCT x1 AS `we"ird; col` FROM `sqlanon_0a1b2c3d_rch0` WHERE len >= ?
-- bind parameters: [2]

-- drop_tables: remove tables where they exist, as one call of several statements (both engines take them
-- without bind parameters), since a call per table has a fixed cost each.
-- context: tables (unqualified names)
DROP TABLE IF EXISTS `sqlanon_0a1b2c3d_fs`;
DROP TABLE IF EXISTS `we"ird; col`
-- bind parameters: []

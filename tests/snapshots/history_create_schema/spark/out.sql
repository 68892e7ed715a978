-- create_schema: the history schema itself (the version table lives in it).
-- context: schema
CREATE SCHEMA IF NOT EXISTS `we"ird; col`
-- bind parameters: []

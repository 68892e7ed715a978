-- create_records: the records microaggregation groups, copied from the source with a row id. Row ids follow
-- the quasi-identifiers, then every other column as text, so that equal inputs give equal ids and MDAV's ties
-- (to the lower row id) are decided the same way on every run. Basic NULL matching leaves out the records
-- with a NULL quasi-identifier.
-- context: table (new scratch table), source (parts), qis, others (the other columns of the source),
--          rid (name of the row id column), basic
-- columns: rid, then the source's columns
CACHE TABLE `sqlanon_0a1b2c3d_mr` AS
SELECT row_number() OVER (ORDER BY
    `AGI`,
    `we"ird; col`,
    CAST(`id` AS STRING),
    CAST(`pct%col` AS STRING),
    1) AS `sqlanon_rid`, s.*
FROM `analytics`.`we"ird; col` AS s
WHERE `AGI` IS NOT NULL AND `we"ird; col` IS NOT NULL
-- bind parameters: []

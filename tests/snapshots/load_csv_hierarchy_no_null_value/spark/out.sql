-- load_csv_hierarchy: the lookup table of create_lookup_table.sql.j2 from a plain hierarchy file parsed by
-- the database, filled as Python's reader fills it (sources.read_csv_hierarchy): rows whose fields are all
-- empty are skipped, value is the first column, and a first column equal to null_value maps NULL (value and
-- l0 NULL). Parsing a large hierarchy file in Python and loading its rows is slow on either engine (DuckDB
-- through a temporary CSV file, PostgreSQL through COPY row by row).
-- context: table (new temp table), height, path, delimiter, null (token no field equals), staging
--          (PostgreSQL: the table stage_csv copied the file into), null_value (or none)
-- columns: value, l0 .. l{height-1}
CACHE TABLE `we"ird; col` AS
SELECT CAST(c0 AS STRING) AS value
     , CAST(c0 AS STRING) AS `l0`
FROM `we"ird; col` AS f
WHERE c0 <> ''
-- bind parameters: []

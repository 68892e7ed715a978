-- load_csv_source: copy a CSV file into a temporary table (DuckDB reads the file itself).
-- context: table (temp table name), path (file path, bound), delimiter (or none for sniffing)
-- returns: nothing
CREATE TEMPORARY TABLE "sqlanon_0a1b2c3d_src" AS
SELECT * FROM read_csv(?, header = true)
-- bind parameters: ['/data/adult.csv']

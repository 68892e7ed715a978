-- load_csv_source: copy a CSV file into a temporary table (DuckDB reads the file itself), in the dialect
-- spreadsheets and Windows tools write: a header line, no preamble to skip, fields quoted with " (and "" inside
-- them); the line end and the column types are detected (csv_source.py says why the rest is not).
-- context: table (temp table name), path (file path, bound), delimiter (or none for sniffing),
--          sample_all (optional: detect the types on every row, not on a sample of the first ones)
-- returns: nothing
CACHE TABLE `sqlanon_0a1b2c3d_src` AS
SELECT * FROM read_csv(?, header = true, skip = 0, quote = ?, escape = ?, delim = ?)
-- bind parameters: ["/data/it's 100%.csv", '"', '"', ';']

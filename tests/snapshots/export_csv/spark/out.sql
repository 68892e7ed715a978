-- export_csv: write a table to a CSV file on the client (DuckDB COPY).
-- context: table (parts), path (bound literal not allowed by COPY: passed as a quoted string), delimiter
COPY `patients_k5` TO '/tmp/o''brien/.sqlanon-x.csv' (HEADER, DELIMITER ';')
-- bind parameters: []

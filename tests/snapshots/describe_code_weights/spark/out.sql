-- describe_code_weights: how many codes have more than one Loss weight (build_code_weights.sql.j2); none, and
-- a class's weight is its size times its code's weight.
-- context: table
-- columns: codes with two weights
SELECT count(*) FROM `we"ird; col` WHERE w <> w_max
-- bind parameters: []

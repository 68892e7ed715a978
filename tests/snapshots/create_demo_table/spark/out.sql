-- create_demo_table: synthetic patient microdata with NULLs (deterministic after setseed).
-- context: table (parts), rows
-- columns: patient_id, name, age, zip, sex, admitted, diagnosis, length_of_stay, notes
CREATE TABLE `patients` AS
SELECT
  CAST(i AS INTEGER) AS patient_id,
  'Patient ' || CAST(i AS STRING) AS name,
  CASE WHEN r1 < 0.04 THEN NULL ELSE CAST(least(99, greatest(0, floor(45 + 18 * (r2 + r3 + r4 - 1.5) * 1.6))) AS INTEGER) END AS age,
  CASE WHEN r5 < 0.06 THEN NULL
       ELSE '13' || lpad(CAST(CAST(floor(r6 * r6 * 40) AS INTEGER) AS STRING), 2, '0') || CAST(CAST(floor(r7 * 10) AS INTEGER) AS STRING) END AS zip,
  CASE WHEN r8 < 0.02 THEN NULL WHEN r9 < 0.51 THEN 'female' ELSE 'male' END AS sex,
  CASE WHEN r10 < 0.03 THEN NULL ELSE CAST(DATE '2015-01-01' + CAST(floor(r11 * 3650) AS INTEGER) AS DATE) END AS admitted,
  CASE WHEN r12 < 0.25 THEN 'hypertension' WHEN r12 < 0.42 THEN 'diabetes' WHEN r12 < 0.55 THEN 'asthma'
       WHEN r12 < 0.66 THEN 'depression' WHEN r12 < 0.75 THEN 'fracture' WHEN r12 < 0.83 THEN 'influenza'
       WHEN r12 < 0.90 THEN 'migraine' WHEN r12 < 0.96 THEN 'pneumonia' ELSE 'cancer' END AS diagnosis,
  CAST(1 + floor(r13 * r13 * 20) AS INTEGER) AS length_of_stay,
  CASE WHEN r14 < 0.5 THEN NULL ELSE 'free text ' || CAST(i AS STRING) END AS notes
FROM (
  SELECT i, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6,
         random() AS r7, random() AS r8, random() AS r9, random() AS r10, random() AS r11, random() AS r12,
         random() AS r13, random() AS r14
  FROM generate_series(1, 1000) AS g(i)
) AS r
-- bind parameters: []

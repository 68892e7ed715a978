-- build_sensitive_domain: the values of one sensitive attribute over the records considered, with their
-- table-wide counts q (the t-closeness reference distribution) and an integer code in the column's natural
-- order (NULL last, a value of its own). With a hierarchy, the codes of every level are attached.
-- context: table (new temp table), source, column, qis (for basic match), basic, numeric (bool),
--          hierarchy (coded lookup table or none), height
-- columns: value, match_key, code, q, [num], [g1, qg1 .. g{height-1}, qg{height-1}: code of the value's label at
--          each level and the label's table-wide count]
CACHE TABLE `sqlanon_0a1b2c3d_d1` AS
SELECT d.value, d.match_key, d.code, d.q
     , h.`g1` AS `g1`
     , sum(d.q) OVER (PARTITION BY h.`g1`) AS `qg1`
     , h.`g2` AS `g2`
     , sum(d.q) OVER (PARTITION BY h.`g2`) AS `qg2`
FROM (
  SELECT CAST(v AS STRING) AS value,
         CASE WHEN v IS NULL THEN 'N' ELSE 'V' || CAST(v AS STRING) END AS match_key,
         CAST(dense_rank() OVER (ORDER BY v ASC NULLS LAST) AS INTEGER) AS code,
         q
  FROM (
    SELECT `diagnosis` AS v, count(*) AS q
    FROM `analytics`.`patients`
    GROUP BY `diagnosis`
  ) AS g
) AS d
JOIN `sqlanon_0a1b2c3d_c100` AS h ON CAST(d.value AS STRING) IS NOT DISTINCT FROM h.value
-- bind parameters: []

-- build_frequency_set: the source aggregated once into distinct quasi-identifier combinations (and values of
-- the sensitive attributes that carry privacy models) with counts, joined to the integer-coded levels of every
-- hierarchy and to the sensitive value codes. Nodes are evaluated against this table.
-- Column order matters on PostgreSQL, whose rows are read left to right up to the last column a query uses
-- (a large share of a node query on a wide frequency set): cnt comes first, then the codes level by level,
-- so that nodes at low levels stop early, and the Loss weights, which fewer queries read, come last. A level
-- whose every hierarchy row weighs the same (`fixed`: a level-0 value is its own label, weight 0; a single top,
-- N - 1) has no weight column: it would be that weight times cnt, and each column stored is a large share of
-- the build (ADULT on DuckDB: 49 columns, 21 ms; without the 16 fixed ones, 16 ms). Readers compute it
-- (weight_total in macros/node_query.sql.j2, level_cell in macros/judge.sql.j2, summarize_frequency_set).
-- context: table (new temp table), source, qis [{column, coded, height, fixed (optional: per level, the Loss weight
--          of every row of the hierarchy's level, or none)}], sensitive [{column, domain}],
--          basic (drop rows with NULL QIs), counted (where the source is grouped already, group_source_rows.sql.j2:
--          its count column, summed; else none and rows are counted)
-- columns: cnt, q{i}_{j} (code of QI i at level j), s{j} (sensitive value code), w{i}_{j} (Loss weight of the
--          row's cnt records at level j: multiplied here once, not in every node query; not for fixed levels)
CACHE TABLE `sqlanon_0a1b2c3d_fs` AS
SELECT g.cnt AS cnt
     , h0.`g0` AS q0_0
     , h1.`g0` AS q1_0
     , h0.`g1` AS q0_1
     , h1.`g1` AS q1_1
     , g.cnt * h0.`w0` AS w0_0
     , g.cnt * h1.`w0` AS w1_0
     , g.cnt * h0.`w1` AS w0_1
     , g.cnt * h1.`w1` AS w1_1
FROM (
  SELECT `age` AS c0, `we"ird; col` AS c1, count(*) AS cnt
  FROM `analytics`.`patients`
  WHERE `age` IS NOT NULL AND `we"ird; col` IS NOT NULL
  GROUP BY `age`, `we"ird; col`
) AS g
JOIN `sqlanon_0a1b2c3d_c0` AS h0 ON CAST(g.c0 AS STRING) IS NOT DISTINCT FROM h0.value
JOIN `sqlanon_0a1b2c3d_c1` AS h1 ON CAST(g.c1 AS STRING) IS NOT DISTINCT FROM h1.value
-- bind parameters: []

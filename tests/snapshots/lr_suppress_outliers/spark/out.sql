-- suppress_outliers: before any merge, the small classes whose nearest merge costs the most per record are
-- suppressed, as many as the suppression limit holds (whole classes, costliest first, ties to the lower id):
-- those are the records that would drag a class far up the hierarchies. Their members lose their class.
-- context: members, classes, edges (nearest.sql.j2 over every small class), limit
UPDATE `sqlanon_0a1b2c3d_lrmem` SET cid = NULL
WHERE cid IN (
  SELECT a FROM (
    SELECT e.a, sum(c.size) OVER (ORDER BY CAST(e.dist AS DOUBLE) / c.size DESC, e.a
                                  ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
    FROM `sqlanon_0a1b2c3d_lre0` AS e JOIN `sqlanon_0a1b2c3d_lrc` AS c ON c.cid = e.a
  ) AS ranked
  WHERE running <= ?
)
-- bind parameters: [30]

-- suppress_small_roots: the records of roots with fewer than k records (or subjects) are suppressed: no box can
-- hold them. A root is a combination of the unchanged quasi-identifiers, in request mode with a time window,
-- and the pattern of NULL coordinates (a NULL is cell -1 at every level: its records are boxes of their own).
-- context: state, k, subject, dims (count of cloaked dimensions)
UPDATE `sqlanon_0a1b2c3d_cs0` SET st = 2
WHERE (r, wi, d0 IS NULL, d1 IS NULL) IN (
  SELECT r, wi, d0 IS NULL, d1 IS NULL FROM `sqlanon_0a1b2c3d_cs0`
  GROUP BY r, wi, d0 IS NULL, d1 IS NULL
  HAVING count(DISTINCT subj) < ?)
-- bind parameters: [5]

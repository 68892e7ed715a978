-- describe_dgh: the inner nodes of the classes' hierarchies (level >= 1: labels of the configuration, not the
-- data's values), with how many children each has.
-- context: dgh
-- returns: id, cls, lvl, label, parent, children
SELECT d.id, d.cls, d.lvl, d.label, d.parent, (SELECT count(*) FROM `sqlanon_0a1b2c3d_rdgh` AS c WHERE c.parent = d.id)
FROM `sqlanon_0a1b2c3d_rdgh` AS d WHERE d.lvl >= 1 ORDER BY d.id
-- bind parameters: []

-- move_members: every distinct combination of values follows its class into the class it was merged into.
-- context: members, merged (merge.sql.j2's table)
UPDATE `sqlanon_0a1b2c3d_lrmem` SET cid = m.cid
FROM `sqlanon_0a1b2c3d_lrm0` AS m
WHERE `sqlanon_0a1b2c3d_lrmem`.cid = m.old AND m.cid <> m.old
-- bind parameters: []

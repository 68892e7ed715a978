-- export_trees_json (DuckDB: the method refuses output.json on an engine that cannot write client files):
-- every record of a written table of trees as one JSON document per line (DuckDB writes each
-- row of FORMAT json as an object): {"record_id": ..., "children": [{"attribute", "value", "children": [...]}]}
-- (macros/tree_documents.sql.j2).
-- context: table (parts, the node table), path (quoted: COPY takes no bound file name), depth
COPY (
  WITH RECURSIVE placed(record_id, node_id, level) AS (
    SELECT record_id, node_id, 1 FROM `analytics`.`customer_trees` WHERE parent_id IS NULL
    UNION ALL
    SELECT n.record_id, n.node_id, p.level + 1
    FROM placed AS p JOIN `analytics`.`customer_trees` AS n ON n.record_id = p.record_id AND n.parent_id = p.node_id
    WHERE p.level < 3
  ), nodes AS (
    SELECT n.record_id, n.node_id, n.parent_id, n.attribute, n.value, p.level
    FROM `analytics`.`customer_trees` AS n JOIN placed AS p ON p.record_id = n.record_id AND p.node_id = n.node_id
  ),
  docs3 AS (
    SELECT n.record_id, n.parent_id, n.node_id,
           named_struct('attribute', n.attribute, 'value', n.value, 'children', array()) AS doc
    FROM nodes AS n
    WHERE n.level = 3
  ),
  docs2 AS (
    SELECT n.record_id, n.parent_id, n.node_id,
           named_struct('attribute', n.attribute, 'value', n.value, 'children', coalesce(c.children, array())) AS doc
    FROM nodes AS n
    LEFT JOIN (SELECT record_id, parent_id, transform(array_sort(collect_list(named_struct('o', node_id, 'd', doc))), x -> x.d) AS children FROM docs3
               GROUP BY record_id, parent_id) AS c
      ON c.record_id = n.record_id AND c.parent_id = n.node_id
    WHERE n.level = 2
  ),
  docs1 AS (
    SELECT n.record_id, n.parent_id, n.node_id,
           named_struct('attribute', n.attribute, 'value', n.value, 'children', coalesce(c.children, array())) AS doc
    FROM nodes AS n
    LEFT JOIN (SELECT record_id, parent_id, transform(array_sort(collect_list(named_struct('o', node_id, 'd', doc))), x -> x.d) AS children FROM docs2
               GROUP BY record_id, parent_id) AS c
      ON c.record_id = n.record_id AND c.parent_id = n.node_id
    WHERE n.level = 1
  )
  SELECT record_id, transform(array_sort(collect_list(named_struct('o', node_id, 'd', doc))), x -> x.d) AS children FROM docs1 GROUP BY record_id
  ORDER BY record_id
) TO '/tmp/it''s.jsonl' (FORMAT json)
-- bind parameters: []

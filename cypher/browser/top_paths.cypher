// DACG: the top 5 paths of run $run from $source to $target (entity ids), direct and
// two-hop, with strength = product of edge beliefs * $discount[hops] (exp(-rho * hops),
// rho = 1), strongest first (the paths the answer is computed from; zero-belief edges carry
// no evidence and are skipped).
// :param run => 'run-abc'   :param source => 'zinc'   :param target => 'common cold'
// :param discount => [1.0, 0.36787944117144233, 0.1353352832366127]
MATCH (a:Entity {ns: $run, id: $source}), (b:Entity {ns: $run, id: $target})
CALL (a, b) {
  MATCH path = (a)-[r:CAUSES]->(b)
  WHERE r.belief > 0.0
  RETURN path
  UNION ALL
  MATCH path = (a)-[r1:CAUSES]->(v:Entity)-[r2:CAUSES]->(b)
  WHERE v <> a AND v <> b AND r1.belief > 0.0 AND r2.belief > 0.0
  RETURN path
}
WITH path, [n IN nodes(path) | n.id] AS ids, relationships(path) AS edges
WITH path, ids, [r IN edges | r.polarity] AS polarities, [r IN edges | r.belief] AS beliefs,
     size(edges) AS hops
RETURN [n IN nodes(path) | n.name] AS route, polarities, beliefs, hops,
       reduce(product = 1.0, w IN beliefs | product * w) * $discount[hops] AS strength,
       path
ORDER BY strength DESC, ids, polarities
LIMIT 5

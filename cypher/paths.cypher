// Direct (k = 1) and two-hop (k = 2) paths from $source to $target with route strength
// Str = prod(w) * exp(-rho k); $discount[k] = exp(-rho k) comes from Python so both stores
// multiply by the same factor. Zero-belief edges carry no evidence and are skipped.
MATCH (a:Entity {ns: $ns, id: $source})
MATCH (b:Entity {ns: $ns, id: $target})
CALL (a, b) {
  MATCH (a)-[r:CAUSES]->(b)
  WHERE r.belief > 0.0
  RETURN [a.id, b.id] AS nodes, [r.polarity] AS polarities, [r.belief] AS beliefs,
         r.belief * $discount[1] AS strength
  UNION ALL
  MATCH (a)-[r1:CAUSES]->(v:Entity)-[r2:CAUSES]->(b)
  WHERE v <> a AND v <> b AND r1.belief > 0.0 AND r2.belief > 0.0
  RETURN [a.id, v.id, b.id] AS nodes, [r1.polarity, r2.polarity] AS polarities,
         [r1.belief, r2.belief] AS beliefs, r1.belief * r2.belief * $discount[2] AS strength
}
RETURN nodes, polarities, beliefs, strength
ORDER BY strength DESC, nodes, polarities
LIMIT $limit

// DACG: a run's causal graph. Every CAUSES edge in namespace $run with its two entities;
// click an edge for its polarity, belief, PMIDs and sentences.
// :param run => 'run-abc'
MATCH (h:Entity {ns: $run})-[r:CAUSES]->(t:Entity)
RETURN h, r, t
ORDER BY h.id, t.id, r.polarity

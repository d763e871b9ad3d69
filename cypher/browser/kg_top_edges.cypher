// DACG: the 25 most-supported edges of the shared knowledge graph: most distinct PMIDs
// first, then highest belief.
// :param kg => 'kg'
MATCH (h:Entity {ns: $kg})-[r:CAUSES]->(t:Entity)
RETURN h.name AS head, t.name AS tail, r.polarity AS polarity, r.belief AS belief,
       r.evidence_count AS evidence_count, r.pmids AS pmids, h, r, t
ORDER BY evidence_count DESC, belief DESC, h.id, t.id, polarity
LIMIT 25

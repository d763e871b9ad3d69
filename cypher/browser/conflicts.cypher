// DACG: conflicting findings in run $run. Entity pairs with edges of more than one polarity
// (they are kept as separate edges, never cancelled), one row per edge.
// :param run => 'run-abc'
MATCH (h:Entity {ns: $run})-[r:CAUSES]->(t:Entity)
WITH h, t, collect(r) AS edges
WHERE size(edges) > 1
UNWIND edges AS r
RETURN h.name AS head, t.name AS tail, r.polarity AS polarity, r.belief AS belief,
       r.evidence_count AS evidence_count, r.pmids AS pmids, h, r, t
ORDER BY h.id, t.id, polarity

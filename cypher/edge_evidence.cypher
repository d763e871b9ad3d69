// The evidence behind the given edges [head, tail, polarity]: one row per PMID with its
// confidence, sentence and year, in the order the edge keeps them (first seen first).
UNWIND $edges AS edge
MATCH (h:Entity {ns: $ns, id: edge[0]})-[r:CAUSES {polarity: edge[2]}]->(t:Entity {ns: $ns, id: edge[1]})
UNWIND range(0, size(r.pmids) - 1) AS i
RETURN h.id AS head, t.id AS tail, r.polarity AS polarity, r.pmids[i] AS pmid,
       r.confidences[i] AS confidence, r.sentences[i] AS sentence, r.years[i] AS year

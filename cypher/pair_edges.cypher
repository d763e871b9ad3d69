// Every polarity's edge between the given (head, tail) id pairs.
UNWIND $pairs AS pair
MATCH (h:Entity {ns: $ns, id: pair[0]})-[r:CAUSES]->(t:Entity {ns: $ns, id: pair[1]})
RETURN h.id AS head, t.id AS tail, r.polarity AS polarity, r.belief AS belief,
       r.pmids AS pmids
ORDER BY head, tail, polarity

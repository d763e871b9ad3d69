// Whole-namespace counts: nodes, edges, (edge, PMID) evidence, distinct PMIDs, entity
// pairs, pairs with more than one polarity (conflicts) and the mean edge belief.
CALL () {
  MATCH (n:Entity {ns: $ns})
  RETURN count(n) AS nodes
}
CALL () {
  MATCH (h:Entity {ns: $ns})-[r:CAUSES]->(t)
  WITH h, t, count(r) AS polarities, sum(r.belief) AS belief_sum,
       sum(r.evidence_count) AS evidence_sum
  RETURN sum(polarities) AS edges, count(*) AS entity_pairs,
         sum(CASE WHEN polarities > 1 THEN 1 ELSE 0 END) AS conflicting_pairs,
         sum(belief_sum) AS belief_total, sum(evidence_sum) AS evidence
}
CALL () {
  MATCH (:Entity {ns: $ns})-[r:CAUSES]->()
  UNWIND r.pmids AS pmid
  RETURN count(DISTINCT pmid) AS pmids
}
RETURN nodes, edges, evidence, pmids, entity_pairs, conflicting_pairs,
       CASE WHEN edges = 0 THEN 0.0 ELSE belief_total / edges END AS mean_belief

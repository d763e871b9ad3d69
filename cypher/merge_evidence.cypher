// One row per distinct edge of the batch with its evidence items (one per PMID at its
// highest confidence, reduced in Python). The evidence lives on the edge as parallel lists
// (pmids, confidences, sentences, extractors, years, steps) in first-seen order; year 0
// means unknown. A PMID already on the edge is replaced only by a strictly higher
// confidence, so re-ingesting an abstract never changes a belief. The belief is the
// noisy-OR over the list, capped at $max_belief, the largest double below 1 (Lemma 1
// under rounding).
UNWIND $edges AS edge
MATCH (h:Entity {ns: $ns, id: edge.head})
MATCH (t:Entity {ns: $ns, id: edge.tail})
MERGE (h)-[r:CAUSES {polarity: edge.polarity}]->(t)
  ON CREATE SET r.ns = $ns, r.pmids = [], r.confidences = [], r.sentences = [],
                r.extractors = [], r.years = [], r.steps = []
WITH r, edge, r.pmids AS known, range(0, size(r.pmids) - 1) AS positions
WITH r, known, positions, [x IN edge.items WHERE NOT x.pmid IN known] AS fresh,
     [i IN positions | head([x IN edge.items
                             WHERE x.pmid = known[i] AND x.confidence > r.confidences[i]])]
       AS better
WITH r, known, fresh, size(fresh) AS added,
     [i IN positions | coalesce(better[i].confidence, r.confidences[i])]
       + [x IN fresh | x.confidence] AS confidences,
     [i IN positions | coalesce(better[i].sentence, r.sentences[i])]
       + [x IN fresh | x.sentence] AS sentences,
     [i IN positions | coalesce(better[i].extractor, r.extractors[i])]
       + [x IN fresh | x.extractor] AS extractors,
     [i IN positions | coalesce(better[i].year, r.years[i])] + [x IN fresh | x.year] AS years,
     [i IN positions | coalesce(better[i].step, r.steps[i])] + [x IN fresh | x.step] AS steps
WITH r, known + [x IN fresh | x.pmid] AS pmids, added, confidences, sentences, extractors,
     years, steps, 1.0 - reduce(remaining = 1.0, s IN confidences | remaining * (1.0 - s)) AS w
SET r.pmids = pmids, r.confidences = confidences, r.sentences = sentences,
    r.extractors = extractors, r.years = years, r.steps = steps,
    r.evidence_count = size(pmids),
    r.belief = CASE WHEN w > $max_belief THEN $max_belief ELSE w END
RETURN sum(added) AS new_evidence

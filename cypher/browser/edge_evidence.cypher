// DACG: the evidence behind the edges $head -> $tail (entity ids) in run $run, every
// polarity: one row per PMID with its confidence, sentence, extractor, year and step
// (the parallel lists on the edge, unwound), strongest first within a polarity.
// :param run => 'run-abc'   :param head => 'zinc'   :param tail => 'common cold'
MATCH (:Entity {ns: $run, id: $head})-[r:CAUSES]->(:Entity {ns: $run, id: $tail})
UNWIND range(0, size(r.pmids) - 1) AS i
RETURN r.polarity AS polarity, r.belief AS belief, r.pmids[i] AS pmid,
       r.confidences[i] AS confidence, r.sentences[i] AS sentence,
       r.extractors[i] AS extractor,
       CASE WHEN r.years[i] = 0 THEN null ELSE r.years[i] END AS year, r.steps[i] AS step
ORDER BY polarity, confidence DESC, pmid

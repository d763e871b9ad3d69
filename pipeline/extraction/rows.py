"""Evidence rows as every extractor makes them, and the pooling of an abstract's rows.

`evidence_row` is the one way an extractor (the rules, the LLM) turns a reading into a
stored row: validated by `model.make_evidence`, the sentence cut to what a store holds,
and the caller's entities kept as head and tail so that rows join the query's nodes.
"""

from __future__ import annotations

import dataclasses

from pipeline.model import (
    MAX_SENTENCE_CHARS,
    Abstract,
    Entity,
    Evidence,
    InvalidEvidence,
    make_evidence,
)


def evidence_row(head: Entity, tail: Entity, polarity: object, confidence: object,
                 abstract: Abstract, sentence: str, extractor: str) -> Evidence | None:
    """The row head -> tail found in `sentence` of `abstract`, or None when a value is
    invalid (make_evidence says which; an extractor drops such a reading, it does not
    fail the abstract)."""
    try:
        row = make_evidence(head.name, "tail" if head.name == tail.name else tail.name,
                            polarity, confidence, abstract.pmid,
                            sentence[:MAX_SENTENCE_CHARS], extractor,
                            abstract.year if isinstance(abstract.year, int) else None)
    except InvalidEvidence:
        return None
    return dataclasses.replace(row, head=head, tail=tail)


def one_finding_per_pair(rows: list[Evidence]) -> list[Evidence]:
    """One row per (head, tail) per abstract: one study reports one finding per pair, so
    sentences that disagree (a within-group change, a hedged conclusion) are pooled; the
    polarity with the largest summed confidence wins and keeps its best sentence, its
    confidence scaled by the share of support it had."""
    pairs: dict[tuple[str, str], list[Evidence]] = {}
    for row in rows:
        pairs.setdefault((row.head.id, row.tail.id), []).append(row)
    out = []
    for group in pairs.values():
        totals: dict[int, float] = {}
        for row in group:
            totals[int(row.polarity)] = totals.get(int(row.polarity), 0.0) + row.confidence
        winner = max(totals, key=lambda p: (totals[p], p == 0))
        best = max((r for r in group if int(r.polarity) == winner), key=lambda r: r.confidence)
        share = totals[winner] / sum(totals.values())
        confidence = round(best.confidence * (0.5 + 0.5 * share), 3)
        out.append(dataclasses.replace(best, confidence=confidence))
    return out

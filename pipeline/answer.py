"""Answer a causal query from what a graph namespace already holds (SPEC §3-4)."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.graph.store import EdgeKey, GraphStore
from pipeline.inference.energy import EnergyTerms, energy
from pipeline.inference.evidence_body import EvidenceBody, StudyFinding
from pipeline.inference.posterior import TOP_K, Posterior, label_posterior
from pipeline.model import CausalPath, EdgeBelief, EvidenceItem, Query


@dataclass(frozen=True)
class Answer:
    query: Query
    posterior: Posterior
    paths: list[CausalPath]
    explanation: list[EdgeBelief]
    energy: EnergyTerms


def explanation_pairs(paths: list[CausalPath]) -> list[tuple[str, str]]:
    """Entity pairs of the edges on the top paths, in first-seen order."""
    pairs: dict[tuple[str, str], None] = {}
    for path in paths:
        for head, tail in zip(path.nodes, path.nodes[1:], strict=False):
            pairs[(head, tail)] = None
    return list(pairs)


def explain(store: GraphStore, namespace: str, top: list[CausalPath],
            posterior: Posterior) -> tuple[list[EdgeBelief], EnergyTerms]:
    """S_t, the edges the top paths use, and the energy over them; the entropy term needs
    every polarity's edge of each pair, not only the ones on a path."""
    pair_edges = store.edges(namespace, explanation_pairs(top))
    used = {(head, tail, polarity) for path in top
            for head, tail, polarity in zip(path.nodes, path.nodes[1:], path.polarities,
                                            strict=False)}
    explanation = [e for e in pair_edges if (e.head, e.tail, e.polarity) in used]
    by_pair: dict[tuple[str, str], dict[int, float]] = {}
    for edge in pair_edges:
        by_pair.setdefault((edge.head, edge.tail), {})[edge.polarity] = edge.belief
    return explanation, energy(posterior, explanation, by_pair)


def answer_from_graph(store: GraphStore, namespace: str, query: Query,
                      top_k: int = TOP_K) -> Answer:
    """Top paths -> posterior -> explanation and energy, with no retrieval."""
    paths = store.paths(namespace, query.intervention.id, query.outcome.id, limit=top_k)
    posterior = label_posterior(paths, query.direction, top_k=top_k)
    explanation, terms = explain(store, namespace, paths, posterior)
    return Answer(query, posterior, paths, explanation, terms)


def explain_edges(store: GraphStore, namespace: str,
                  edges: list[EdgeBelief]) -> dict[EdgeKey, list[EvidenceItem]]:
    """The sentence, confidence and year behind every PMID of the explanation's edges."""
    return store.evidence(namespace, [(e.head, e.tail, e.polarity) for e in edges])


def direct_body(store: GraphStore, namespace: str, answer: Answer) -> EvidenceBody:
    """The studies' findings on the direct intervention -> outcome pair, every polarity
    (study sizes and designs are not in the graph, so neither the participants threshold
    nor the design rule applies)."""
    head, tail = answer.query.intervention.id, answer.query.outcome.id
    found = store.evidence(namespace, [(head, tail, p) for p in (1, 0, -1)])
    return EvidenceBody.of(StudyFinding(item.pmid, polarity, item.confidence, item.sentence)
                           for (_, _, polarity), items in found.items() for item in items)

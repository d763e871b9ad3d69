"""The DACG agent loop (SPEC §1, the paper's stopping-loop figure).

Each step reads one batch of abstracts, extracts triples, writes them into the run's own
namespace (noisy-OR in the store), enumerates paths, and computes the posterior, KL, energy,
the 20 features and the PRM reward; the stopping policy then decides. While the posterior
has no path (NoEvidence) the search expands through intermediate entities found so far:
for a neighbour v of E1 (or of E2) it also reads the literature on (v, E2) (or (E1, v)),
one extra batch per step, so two-hop paths can form. Every step is recorded.

For the features it also keeps, in memory, what it has seen so far: the direct studies
(PMIDs with a triple E1 -> E2: side of their most confident such triple, sample size the
abstract states) in reading order, and how many steps had each label. Nothing is read
ahead and no answer key is used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Protocol

from pipeline.answer import explain
from pipeline.extraction.study import sample_size
from pipeline.graph.store import GraphStore
from pipeline.inference.energy import energy
from pipeline.inference.features import (
    FEATURE_VERSION,
    DirectStudy,
    StepState,
    feature_vector,
)
from pipeline.inference.posterior import (
    TOP_K,
    Posterior,
    kl_divergence,
    label_posterior,
    uniform_posterior,
)
from pipeline.model import (
    Abstract,
    CausalPath,
    EdgeBelief,
    Entity,
    Evidence,
    Label,
    Query,
    label_index,
)
from pipeline.retrieval.source import Cursor, EmptyResult, LiteratureSource, SearchConstraints
from pipeline.runs import run_namespace
from pipeline.stopping.policies import BUDGET, DACGPolicy, StopDecision, StoppingPolicy
from pipeline.trajectory import StepRecord

PATH_LIMIT = 200  # paths enumerated per step for the path-count features; top 5 decide


class Extractor(Protocol):
    def extract(self, abstract: Abstract, query: Query,
                mediators: Sequence[Entity] = ()) -> list[Evidence]: ...


class RewardModel(Protocol):
    def reward(self, features: Mapping[str, float]) -> float: ...


@dataclass(frozen=True)
class RunResult:
    """The answer with its provenance and the full recorded trajectory."""

    run_id: str
    query: Query
    posterior: Posterior
    stop: StopDecision
    paths: list[CausalPath]
    explanation: list[EdgeBelief]
    steps: list[StepRecord]


@dataclass
class _Search:
    """The cursors a run reads from: the query's own, then expansions via mediators."""

    primary: Cursor | None
    expansions: list[Cursor]
    expanded: set[str]

    def next_step(self) -> list[Abstract]:
        batch = self.primary.next_batch() if self.primary else []
        for cursor in self.expansions:
            if not cursor.exhausted:
                batch += cursor.next_batch()
                break
        return batch


class Controller:
    """Runs one query to a stop. Store, source, extractor and reward model are passed in.
    `rules` is DACG with the thresholds in force: each step records which of its rules
    would fire (none are recorded without it, rather than flags from other thresholds)."""

    def __init__(self, store: GraphStore, source: LiteratureSource, extractor: Extractor,
                 policy: StoppingPolicy | None = None, reward_model: RewardModel | None = None,
                 budget: int = BUDGET, constraints: SearchConstraints | None = None,
                 on_step: Callable[[StepRecord], None] | None = None,
                 rules: DACGPolicy | None = None) -> None:
        """Args:
            store: the graph each run writes into, in its own namespace.
            source: the literature the run reads, one batch of abstracts per step.
            extractor: reads (head, tail, polarity, confidence) triples from an abstract.
            policy: when to stop; None reads until the budget or the source runs out.
            reward_model: the PRM scoring each step (rewards in [0, 1]); None: no rewards.
            budget: the most retrieval steps a run may take.
            constraints: search limits (years, publication types, batch size) handed to
                the source; None: the source's defaults.
            on_step: called with each step's record as soon as it is complete.
            rules: DACG with the thresholds in force, whose rule flags each step records.
        """
        self.store, self.source, self.extractor = store, source, extractor
        self.policy, self.reward_model, self.rules = policy, reward_model, rules
        self.budget, self.constraints, self.on_step = budget, constraints, on_step

    def run(self, query: Query, query_id: str = "query", run_id: str | None = None) -> RunResult:
        namespace = run_id or run_namespace(query_id, datetime.now(UTC))
        search = _Search(self._search(query), [], set())
        posterior = previous = uniform_posterior(query.direction)
        previous_energy = energy(previous, [], {}).total
        mediators: dict[str, Entity] = {}
        steps: list[StepRecord] = []
        abstracts_read = relevant = 0
        stop: StopDecision | None = None
        paths: list[CausalPath] = []
        explanation: list[EdgeBelief] = []
        direct: dict[str, tuple[DirectStudy, float]] = {}  # pmid -> study, its confidence
        label_counts: dict[Label, int] = {}
        for t in range(1, self.budget + 1):
            batch = search.next_step()
            if not batch:
                break
            evidence: list[Evidence] = []
            for abstract in batch:
                found = self.extractor.extract(abstract, query, tuple(mediators.values()))
                relevant += any(_touches(e, query) for e in found)
                _note_direct(direct, abstract, found, query)
                evidence += [replace(e, step=t) for e in found]
            abstracts_read += len(batch)
            summary = self.store.write(namespace, evidence)
            paths = self.store.paths(namespace, query.intervention.id, query.outcome.id,
                                     limit=PATH_LIMIT)
            posterior = label_posterior(paths, query.direction)
            explanation, terms = explain(self.store, namespace, paths[:TOP_K], posterior)
            stats = self.store.stats(namespace)
            label_counts[posterior.label] = label_counts.get(posterior.label, 0) + 1
            features = feature_vector(StepState(
                paths=paths, posterior=posterior, explanation=explanation, stats=stats,
                abstracts_read=abstracts_read, relevant_abstracts=relevant,
                new_edges=summary.new_edges, new_evidence=summary.new_evidence,
                energy=terms.total, previous_energy=previous_energy,
                direct=[study for study, _ in direct.values()], steps=t,
                label_steps=label_counts[posterior.label]))
            expanded = [] if posterior.informed else self._expand(
                search, query, evidence, mediators)
            record = StepRecord(
                query_id=query_id, step=t, retrieved_pmids=[a.pmid for a in batch],
                new_evidence=[_evidence_json(e) for e in evidence],
                graph={"nodes": stats.nodes, "edges": stats.edges, "evidence": stats.evidence,
                       "pmids": stats.pmids, "density": stats.density,
                       "conflicting_pairs": stats.conflicting_pairs,
                       "mean_belief": stats.mean_belief},
                top_paths=[{"nodes": list(p.nodes), "polarities": list(p.polarities),
                            "beliefs": list(p.beliefs), "strength": p.strength}
                           for p in paths[:TOP_K]],
                posterior=posterior.as_dict(), informed=posterior.informed,
                label=posterior.label.value,
                kl=kl_divergence(posterior.probs, previous.probs),
                energy={"log_posterior": terms.log_posterior, "uncertainty": terms.uncertainty,
                        "violation": terms.violation, "total": terms.total},
                features=features, feature_version=FEATURE_VERSION,
                reward=self.reward_model.reward(features) if self.reward_model else None,
                expanded=expanded)
            if self.rules:
                record = replace(record, rules=self.rules.flags([*steps, record]))
            steps.append(record)
            if self.on_step:
                self.on_step(record)
            previous, previous_energy = posterior, terms.total
            reason = self.policy.fires(steps) if self.policy else None
            if reason:
                stop = StopDecision(t, reason)
                break
        if stop is None:
            stop = StopDecision(len(steps), "budget" if len(steps) >= self.budget
                                else "source_dry")
        return RunResult(namespace, query, posterior, stop, paths[:TOP_K], explanation, steps)

    def _search(self, query: Query) -> Cursor | None:
        try:
            return self.source.search(query, self.constraints)
        except EmptyResult:
            return None

    def _expand(self, search: _Search, query: Query, evidence: Iterable[Evidence],
                mediators: dict[str, Entity]) -> list[str]:
        """Open searches through entities adjacent to E1 or E2: (v, E2) for E1 -> v and
        (E1, v) for v -> E2. Returns the searches opened."""
        opened = []
        for row in evidence:
            if row.head.id == query.intervention.id and row.tail.id != query.outcome.id:
                mediator, hop = row.tail, Query(row.tail, query.outcome)
            elif row.tail.id == query.outcome.id and row.head.id != query.intervention.id:
                mediator, hop = row.head, Query(query.intervention, row.head)
            else:
                continue
            if mediator.id in search.expanded:
                continue
            search.expanded.add(mediator.id)
            mediators[mediator.id] = mediator
            cursor = self._search(hop)
            if cursor is not None:
                search.expansions.append(cursor)
                opened.append(f"{hop.intervention.name} -> {hop.outcome.name}")
        return opened


def _note_direct(direct: dict[str, tuple[DirectStudy, float]], abstract: Abstract,
                 found: Sequence[Evidence], query: Query) -> None:
    """Record the abstract's most confident E1 -> E2 triple (an earlier one wins ties; a
    PMID keeps its first reading position). Its sample size is parsed once, when it first
    yields a direct triple."""
    for row in found:
        if row.head.id != query.intervention.id or row.tail.id != query.outcome.id:
            continue
        side = label_index(int(row.polarity), query.direction)
        known = direct.get(row.pmid)
        if known is None:
            size = sample_size(abstract) or 0
            direct[row.pmid] = (DirectStudy(row.pmid, side, size), row.confidence)
        elif row.confidence > known[1]:
            direct[row.pmid] = (replace(known[0], side=side), row.confidence)


def _touches(row: Evidence, query: Query) -> bool:
    return query.intervention.id in (row.head.id, row.tail.id) or \
        query.outcome.id in (row.head.id, row.tail.id)


def _evidence_json(row: Evidence) -> dict[str, object]:
    return {"head": row.head.id, "tail": row.tail.id, "polarity": int(row.polarity),
            "confidence": row.confidence, "pmid": row.pmid, "sentence": row.sentence}

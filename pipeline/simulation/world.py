"""The simulated world's model: which queries exist (entities, true labels, bias,
mechanisms) and what each of their studies reports, before any text is written.

Each simulated query (intervention, comparator, outcome, desired direction) has a true
label and a literature of varying size. Publication bias: a study of a null effect reports
a favourable finding with probability 1/2 + b * g(u), where u in (0, 1) is its position in
the relevance ranking and g(u) = 1 + c (2u - 1) averages 1, so the share of favourable
reports is 1/2 + b overall while the first (largest, most relevant) trials are the most
reliable and the last the most biased (c is the rank gradient). What each study found lives
in its `StudyKey`, an answer key the extractor never sees.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pipeline.model import Entity, Label, Polarity, Query
from pipeline.simulation.vocabulary import DOMAINS, Domain, SimulationError, Term, find_term

# --------------------------------------------------------------------------------------
# Configuration and queries


@dataclass(frozen=True, slots=True)
class SimConfig:
    """The literature model. bias is b; bias_sd lets b vary per query (N(b, sd), clipped);
    rank_gradient is c in g(u) = 1 + c (2u - 1); reports per query are log-normal."""

    bias: float = 0.1
    bias_sd: float = 0.0
    rank_gradient: float = 1.5
    median_reports: float = 11.0
    min_reports: int = 2
    max_reports: int = 40
    background_share: float = 0.1
    mechanism_share: float = 0.3

    def __post_init__(self) -> None:
        if self.rank_gradient < 0:
            raise SimulationError(f"rank gradient must be non-negative, got "
                                  f"{self.rank_gradient}")
        if not 0.0 <= self.bias <= self.max_bias:
            raise SimulationError(
                f"bias must be in [0, {self.max_bias:.3f}] with rank gradient "
                f"{self.rank_gradient} (1/2 + b (1 + c) must stay a probability), "
                f"got {self.bias}")
        if self.bias_sd < 0:
            raise SimulationError(f"bias sd must be non-negative, got {self.bias_sd}")
        if not 1 <= self.min_reports <= self.max_reports:
            raise SimulationError(f"need 1 <= min reports <= max reports, got "
                                  f"{self.min_reports} and {self.max_reports}")
        if self.median_reports <= 0:
            raise SimulationError(f"median reports must be positive, got {self.median_reports}")
        for name in ("background_share", "mechanism_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise SimulationError(f"{name.replace('_', ' ')} must be in [0, 1]")

    @property
    def max_bias(self) -> float:
        """Largest b for which every study's probability 1/2 + b g(u) stays below 1."""
        return 0.5 / (1.0 + self.rank_gradient)


@dataclass(frozen=True, slots=True)
class Mechanism:
    """An intermediate entity v on a two-hop path E1 -> v -> E2, with the two true
    polarities (their product is the query's true polarity)."""

    term: Term
    to_mediator: int
    to_outcome: int


@dataclass(frozen=True, slots=True)
class SimQuery:
    """A query with its ground truth (label, bias, mechanism): the answer side."""

    id: str
    index: int
    split: str
    review: str
    domain: str
    population: str
    intervention: Term
    comparator: str
    outcome: Term
    label: Label
    bias: float
    n_reports: int
    mechanism: Mechanism | None = None

    @property
    def direction(self) -> Polarity:
        return Polarity(self.outcome.desired)

    @property
    def true_polarity(self) -> int:
        """The effect on the outcome: the desired direction, none, or the opposite."""
        return {Label.BENEFICIAL: 1, Label.NO_EFFECT: 0, Label.HARMFUL: -1}[
            self.label] * self.outcome.desired

    def query(self) -> Query:
        """What the agent is asked: no label, bias or mechanism. The entities carry their
        other surface forms as aliases, as MeSH entry terms would for a grounded query."""
        return Query(intervention=Entity.from_name(self.intervention.name, "intervention",
                                                   self.intervention.forms[1:]),
                     outcome=Entity.from_name(self.outcome.name, "outcome",
                                              self.outcome.forms[1:]),
                     comparator=Entity.from_name(self.comparator, "comparator"),
                     direction=self.direction,
                     constraints={"population": self.population})

    def to_json(self) -> dict[str, Any]:
        mechanism = None
        if self.mechanism is not None:
            mechanism = {**self.mechanism.term.to_json(),
                         "intervention_to_mechanism": self.mechanism.to_mediator,
                         "mechanism_to_outcome": self.mechanism.to_outcome}
        return {"id": self.id, "index": self.index, "split": self.split,
                "review": self.review, "domain": self.domain, "population": self.population,
                "intervention": self.intervention.to_json(), "comparator": self.comparator,
                "outcome": self.outcome.to_json(), "direction": self.outcome.desired,
                "label": self.label.value, "bias": self.bias, "n_reports": self.n_reports,
                "mechanism": mechanism}

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> SimQuery:
        """Terms come back from the vocabulary, so the literature can be regenerated."""
        mechanism = None
        if row.get("mechanism"):
            m = row["mechanism"]
            mechanism = Mechanism(find_term(m["name"]), int(m["intervention_to_mechanism"]),
                                  int(m["mechanism_to_outcome"]))
        return cls(id=str(row["id"]), index=int(row["index"]), split=str(row["split"]),
                   review=str(row["review"]), domain=str(row["domain"]),
                   population=str(row["population"]),
                   intervention=find_term(row["intervention"]["name"]),
                   comparator=str(row["comparator"]), outcome=find_term(row["outcome"]["name"]),
                   label=Label(row["label"]), bias=float(row["bias"]),
                   n_reports=int(row["n_reports"]), mechanism=mechanism)


MECHANISM_QUERY_SHARE = 0.7


class World:
    """Hands out queries so that no intervention-outcome pair repeats and the mechanism
    edges shared between queries (same E1 -> v, or v -> E2) keep one true polarity."""

    def __init__(self, seed: int, config: SimConfig | None = None) -> None:
        self.seed = seed
        self.config = config or SimConfig()
        self.rng = random.Random(f"{seed}:world")
        self.queries: list[SimQuery] = []
        self._used: set[tuple[str, str]] = set()
        self._edges: dict[tuple[str, str], int] = {}
        self._reviews = 0
        self._count = 0

    @staticmethod
    def capacity() -> int:
        return sum(len(d.interventions) * len(d.outcomes) for d in DOMAINS)

    def review(self, split: str, labels: Sequence[Label]) -> list[SimQuery]:
        """One review: one intervention in one population, one query per label (fewer if
        the vocabulary runs out of unused outcomes for every intervention)."""
        free = [(domain, intervention, [o for o in domain.outcomes
                                        if (intervention.name, o.name) not in self._used])
                for domain in DOMAINS for intervention in domain.interventions]
        free = [entry for entry in free if entry[2]]
        if not free:
            raise SimulationError(f"the vocabulary holds only {self.capacity()} "
                                  "intervention-outcome pairs")
        domain, intervention, outcomes = self.rng.choices(
            free, weights=[len(entry[2]) for entry in free])[0]
        population = intervention.population or self.rng.choice(domain.populations)
        self._reviews += 1
        review = f"R{self._reviews:04d}"
        made = []
        for label, outcome in zip(labels, self.rng.sample(outcomes, min(len(labels),
                                                                         len(outcomes))),
                                  strict=False):
            self._used.add((intervention.name, outcome.name))
            made.append(self._query(split, review, domain, population, intervention,
                                    outcome, label))
        self.queries.extend(made)
        return made

    def _query(self, split: str, review: str, domain: Domain, population: str,
               intervention: Term, outcome: Term, label: Label) -> SimQuery:
        config = self.config
        bias = config.bias
        if config.bias_sd > 0:
            bias = min(config.max_bias, max(0.0, self.rng.gauss(config.bias, config.bias_sd)))
        size = round(self.rng.lognormvariate(math.log(config.median_reports), 0.6))
        self._count += 1
        index = self._count
        query = SimQuery(id=f"Q{index:04d}", index=index, split=split, review=review,
                         domain=domain.name, population=population, intervention=intervention,
                         comparator=intervention.comparator, outcome=outcome, label=label,
                         bias=bias, n_reports=min(config.max_reports,
                                                  max(config.min_reports, size)))
        truth = query.true_polarity
        if self.rng.random() < MECHANISM_QUERY_SHARE:
            return replace(query, mechanism=self._mechanism(domain, intervention, outcome,
                                                            truth))
        return query

    def _mechanism(self, domain: Domain, intervention: Term, outcome: Term,
                   truth: int) -> Mechanism | None:
        options = list(domain.mechanisms)
        self.rng.shuffle(options)
        for mediator in options:
            first = self._edges.get((intervention.name, mediator.name))
            if first is None:
                first = self.rng.choice((1, -1))
            second = truth * first  # first is +-1, so first * second == truth
            if self._edges.get((mediator.name, outcome.name), second) != second:
                continue
            self._edges[(intervention.name, mediator.name)] = first
            self._edges[(mediator.name, outcome.name)] = second
            return Mechanism(mediator, first, second)
        return None


# --------------------------------------------------------------------------------------
# What each study found (the answer key) and how the studies are ranked


@dataclass(frozen=True, slots=True)
class StudyKey:
    """The answer key of one simulated abstract; never passed to the extractor.

    `reported` is the polarity the study reports for its topic (head -> tail): +1 the
    tail increased, -1 decreased, 0 no significant effect, None no result (a review).
    """

    pmid: str
    topic: str
    head: str
    tail: str
    kind: str
    rank: int
    sample_size: int
    reported: int | None

    def to_json(self) -> dict[str, Any]:
        return {"pmid": self.pmid, "topic": self.topic, "head": self.head,
                "tail": self.tail, "kind": self.kind, "rank": self.rank,
                "sample_size": self.sample_size, "reported": self.reported}


def report_probabilities(label: Label, bias: float, u: float,
                         gradient: float) -> tuple[float, float]:
    """(P favourable, P unfavourable) for a study at relevance position u in (0, 1).

    Null truth: favourable with 1/2 + b g(u), else null. Real benefit: favourable with
    0.72 + b g(u) (large trials are slightly more conservative). Real harm: large
    trials detect it (0.65 falling to 0.35), and bias adds spurious favourable reports.
    """
    g = 1.0 + gradient * (2.0 * u - 1.0)
    if label is Label.NO_EFFECT:
        return 0.5 + bias * g, 0.0
    if label is Label.BENEFICIAL:
        return min(0.97, max(0.03, 0.72 + bias * g)), 0.0
    harm = 0.65 - 0.3 * u
    return min(1.0 - harm, max(0.0, bias * g)), harm


@dataclass(frozen=True, slots=True)
class Study:
    """A planned study: its answer key, year, and the mechanism result it mentions."""

    key: StudyKey
    year: int
    mechanism: tuple[Term, int] | None = None


Planned = tuple[str, int, str, int | None, tuple[Term, int] | None]
"""A report before ranking: kind, sample size, tail entity, what it reports, mechanism."""


def study_sizes(rng: random.Random, count: int) -> list[int]:
    """Sample sizes, log-uniform in [40, 4000], largest first (as relevance ranking tends
    to put them)."""
    return sorted((round(math.exp(rng.uniform(math.log(40), math.log(4000))))
                   for _ in range(count)), reverse=True)


def draw_verdict(rng: random.Random, favourable: float, unfavourable: float) -> int:
    """+1 (favourable), -1 (unfavourable) or 0 (null), with the given probabilities."""
    draw = rng.random()
    return 1 if draw < favourable else -1 if draw < favourable + unfavourable else 0


def mentioned_mechanism(rng: random.Random, query: SimQuery,
                        share: float) -> tuple[Term, int] | None:
    """The mechanism result a study of the query mentions (with probability `share`), and
    what it saw (the true polarity 85% of the time, else no change)."""
    if query.mechanism is None or rng.random() >= share:
        return None
    return query.mechanism.term, query.mechanism.to_mediator if rng.random() < 0.85 else 0


def ranked_studies(rng: random.Random, query: SimQuery, planned: Sequence[Planned],
                   background_share: float) -> list[Study]:
    """The planned reports with narrative reviews mixed in (never first), as studies in rank
    order, each with its answer key and year."""
    reports = list(planned)
    for _ in range(sum(rng.random() < background_share for _ in planned)):
        reports.insert(rng.randint(1, len(reports)),
                       ("review", 0, query.outcome.name, None, None))
    return [Study(StudyKey(pmid=f"9{query.index:05d}{rank:03d}", topic=query.id,
                           head=query.intervention.name, tail=tail, kind=kind, rank=rank,
                           sample_size=size, reported=reported),
                  rng.randint(2010, 2025), mechanism)
            for rank, (kind, size, tail, reported, mechanism) in enumerate(reports)]


def plan_query(query: SimQuery, seed: int, config: SimConfig) -> list[Study]:
    """The ranked studies of a query: trials and cohorts sorted by size (largest first,
    as relevance ranking tends to put them), with a few narrative reviews mixed in."""
    rng = random.Random(f"{seed}:{query.id}")
    sizes = study_sizes(rng, query.n_reports)
    reports: list[Planned] = []
    for i, size in enumerate(sizes):
        verdict = draw_verdict(rng, *report_probabilities(
            query.label, query.bias, (i + 0.5) / len(sizes), config.rank_gradient))
        kind = "trial" if size >= 300 or rng.random() < 0.7 else "cohort"
        mechanism = mentioned_mechanism(rng, query, config.mechanism_share)
        reports.append((kind, size, query.outcome.name, verdict * query.outcome.desired,
                        mechanism))
    return ranked_studies(rng, query, reports, config.background_share)


def plan_edge(head: Term, tail: Term, polarity: int, index: int, seed: int) -> list[Study]:
    """Mechanistic literature for one world edge (E1 -> v trials, v -> E2 cohorts):
    small, unbiased studies that see the true polarity 80% of the time."""
    rng = random.Random(f"{seed}:edge:{head.name}:{tail.name}")
    kind = "association" if tail.desired else "mechanism"
    studies = []
    for rank in range(rng.randint(2, 6)):
        if polarity != 0:
            seen = polarity if rng.random() < 0.8 else 0
        else:
            seen = 0 if rng.random() < 0.8 else rng.choice((1, -1))
        size = round(math.exp(rng.uniform(math.log(30), math.log(3000 if kind == "association"
                                                                else 300))))
        studies.append(Study(StudyKey(pmid=f"8{index:05d}{rank:03d}", topic=f"E{index:05d}",
                                       head=head.name, tail=tail.name, kind=kind, rank=rank,
                                       sample_size=size, reported=seen),
                              rng.randint(2010, 2025)))
    return studies

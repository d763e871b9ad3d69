"""The simulated literature as a `LiteratureSource`: a seeded, offline stand-in for
PubMed whose ground truth is known. The world (`world.py`) plans each topic's studies, the
renderer (`rendering.py`) writes their abstracts, and this adapter serves them in rank
order behind the same interface as PubMed."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.model import Abstract, Entity, Query, normalise_name
from pipeline.retrieval.source import EmptyResult, ListCursor, SearchConstraints
from pipeline.simulation.rendering import render_edge, render_study
from pipeline.simulation.vocabulary import TERMS, Term
from pipeline.simulation.world import (
    SimConfig,
    SimQuery,
    Study,
    StudyKey,
    plan_edge,
    plan_query,
)


@dataclass(frozen=True, slots=True)
class _Topic:
    """What one (head, tail) search returns: a query's studies or a mechanism edge's."""

    id: str
    head: Term
    tail: Term
    polarity: int
    index: int
    population: str
    comparator: str
    query: SimQuery | None = None


class SimulatedLiterature:
    """Serves the queries' literatures behind the same interface as PubMed: a search for
    (intervention, outcome) reads that query's studies in rank order; a search for
    (intervention, mediator) or (mediator, outcome) reads the mechanism literature.
    Entities are recognised by any surface form (name, abbreviation, synonym)."""

    def __init__(self, queries: Sequence[SimQuery], seed: int,
                 config: SimConfig | None = None, batch_size: int = 1) -> None:
        self.seed = seed
        self.config = config or SimConfig()
        self.batch_size = batch_size
        self.queries = tuple(queries)
        self._names = {normalise_name(form): term.name
                       for term in TERMS.values() for form in term.forms}
        self._topics: dict[tuple[str, str], _Topic] = {}
        self._by_id: dict[str, _Topic] = {}
        self._cache: dict[str, list[tuple[Abstract, StudyKey]]] = {}
        for q in self.queries:
            self._add(q.intervention, q.outcome, q.true_polarity, q.population,
                      q.comparator, q)
        for q in self.queries:
            if q.mechanism is not None:
                self._add(q.intervention, q.mechanism.term, q.mechanism.to_mediator,
                          q.population, q.comparator)
                self._add(q.mechanism.term, q.outcome, q.mechanism.to_outcome, q.population,
                          q.comparator)

    def _add(self, head: Term, tail: Term, polarity: int, population: str, comparator: str,
             query: SimQuery | None = None) -> None:
        key = (head.name, tail.name)
        if key not in self._topics:
            index = len(self._topics) + 1
            topic_id = query.id if query is not None else f"E{index:05d}"
            topic = _Topic(topic_id, head, tail, polarity, index, population, comparator,
                           query)
            self._topics[key] = self._by_id[topic_id] = topic

    def search(self, query: Query, constraints: SearchConstraints | None = None) -> ListCursor:
        constraints = constraints or SearchConstraints()
        head, tail = self._resolve(query.intervention), self._resolve(query.outcome)
        topic = self._topics.get((head or "", tail or ""))
        if topic is None:
            raise EmptyResult(f"no simulated study of {query.intervention.name!r} and "
                              f"{query.outcome.name!r}")
        ranked = [abstract for abstract, _ in self.literature(topic.id)
                  if constraints.admits_year(abstract.year)
                  and constraints.admits_types(abstract.publication_types)]
        if not ranked:
            raise EmptyResult(f"no simulated study of {query.intervention.name!r} and "
                              f"{query.outcome.name!r} within the constraints")
        return ListCursor(ranked[:constraints.max_results],
                          constraints.batch_size or self.batch_size)

    def _resolve(self, entity: Entity) -> str | None:
        return self._names.get(normalise_name(entity.name)) or self._names.get(entity.id)

    def with_aliases(self, query: Query) -> Query:
        """The vocabulary plays the part MeSH entry terms play for a real query: each
        entity it knows gets its other surface forms as aliases."""

        def known(entity: Entity) -> Entity:
            name = self._names.get(entity.id)
            if name is None:
                return entity
            term = TERMS[name]
            return Entity.from_name(term.name, aliases=tuple(
                f for f in term.forms if normalise_name(f) != normalise_name(term.name)))

        return Query(known(query.intervention), known(query.outcome),
                     known(query.comparator) if query.comparator else None, query.direction,
                     dict(query.constraints))

    @property
    def topic_ids(self) -> list[str]:
        return list(self._by_id)

    def literature(self, topic_id: str) -> list[tuple[Abstract, StudyKey]]:
        """A topic's abstracts with their answer keys, generated on first use."""
        if topic_id not in self._cache:
            self._cache[topic_id] = list(self._generate(self._by_id[topic_id]))
        return self._cache[topic_id]

    def answer_key(self, query_id: str) -> list[StudyKey]:
        return [key for _, key in self.literature(query_id)]

    def abstracts(self) -> list[Abstract]:
        """Every abstract of every topic, topic by topic in rank order."""
        return [abstract for topic in self.topic_ids for abstract, _ in self.literature(topic)]

    def plan(self, query: SimQuery) -> list[Study]:
        """The ranked studies of a query (the calibrated world plans its own)."""
        return plan_query(query, self.seed, self.config)

    def render(self, study: Study, query: SimQuery, rng: random.Random) -> Abstract:
        """The abstract of one of a query's planned studies."""
        return render_study(study, query, rng)

    def _generate(self, topic: _Topic) -> Iterable[tuple[Abstract, StudyKey]]:
        if topic.query is not None:
            for study in self.plan(topic.query):
                yield self.render(study, topic.query, self._text_rng(study)), study.key
            return
        for study in plan_edge(topic.head, topic.tail, topic.polarity, topic.index, self.seed):
            yield (render_edge(study, topic.head, topic.tail, topic.comparator,
                               topic.population, self._text_rng(study)), study.key)

    def _text_rng(self, study: Study) -> random.Random:
        """Each abstract's wording has its own seed, so planning never shifts it."""
        return random.Random(f"{self.seed}:text:{study.key.pmid}")

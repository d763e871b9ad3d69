"""The simulated world's entities: ten clinical areas, each with its populations,
interventions, outcomes and mechanisms, read from the shipped `data/simulation/vocabulary.txt`
(its header says the line format). Every surface form (name, abbreviation, synonym) names one
entity only, so an entity is recognised by any of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pipeline.model import normalise_name
from pipeline.resources import shipped

VOCABULARY_FILE = "data/simulation/vocabulary.txt"  # shipped (pipeline.resources)


class SimulationError(ValueError):
    """An impossible simulator setting; the message is one line."""


@dataclass(frozen=True, slots=True)
class Term:
    """A simulated entity with the surface forms an abstract may use for it."""

    name: str
    abbreviation: str | None = None
    synonyms: tuple[str, ...] = ()
    desired: int = 0          # outcomes: +1 when higher is better, -1 when lower is
    unit: str | None = None   # outcomes: the measurement unit; None for an event rate
    scale: float = 1.0        # outcomes: the measurement's typical standard deviation
    comparator: str = "placebo"  # interventions: the usual control arm
    population: str | None = None  # interventions: where it is studied (None: anywhere)

    @property
    def forms(self) -> tuple[str, ...]:
        return (self.name, *((self.abbreviation,) if self.abbreviation else ()),
                *self.synonyms)

    @property
    def continuous(self) -> bool:
        return self.unit is not None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "abbreviation": self.abbreviation,
                "synonyms": list(self.synonyms)}


@dataclass(frozen=True, slots=True)
class Domain:
    name: str
    populations: tuple[str, ...]
    interventions: tuple[Term, ...]
    outcomes: tuple[Term, ...]
    mechanisms: tuple[Term, ...]


def parse_vocabulary(text: str) -> tuple[Domain, ...]:
    """The areas of a vocabulary text ('#' lines are comments)."""
    domains: list[Domain] = []
    parts: dict[str, list[Any]] = {}
    name = ""
    for raw in [*text.strip().splitlines(), "= end"]:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("= "):
            if name:
                domains.append(Domain(name, tuple(parts["P"]), tuple(parts["I"]),
                                      tuple(parts["O"]), tuple(parts["M"])))
            name, parts = line[2:], {"P": [], "I": [], "O": [], "M": []}
            populations: dict[str, str] = {}
            continue
        kind, rest = line.split(":", 1)
        if kind in ("P", "p"):
            key, _, population = rest.partition("=")
            populations[key.strip()] = population.strip()
            if kind == "P":
                parts["P"].append(population.strip())
            continue
        fields = [f.strip() for f in rest.split("|")]
        term = Term(fields[0], fields[1] or None,
                    tuple(s.strip() for s in fields[2].split(";") if s.strip()))
        if kind == "I":
            term = replace(term, comparator=fields[3],
                           population=populations[fields[4]] if len(fields) > 4 else None)
        elif kind == "O":
            unit, _, scale = fields[4].partition(" ")
            term = replace(term, desired=1 if fields[3] == "+" else -1,
                           unit=None if unit == "event" else unit, scale=float(scale or 1.0))
        parts[kind].append(term)
    return tuple(domains)


def term_index(domains: Sequence[Domain]) -> dict[str, Term]:
    """Canonical name -> term; every surface form must name one term only."""
    terms: dict[str, Term] = {}
    owner: dict[str, str] = {}
    for domain in domains:
        for term in (*domain.interventions, *domain.outcomes, *domain.mechanisms):
            if terms.setdefault(term.name, term) != term:
                raise SimulationError(f"vocabulary: {term.name!r} is defined twice")
            for form in term.forms:
                if owner.setdefault(normalise_name(form), term.name) != term.name:
                    raise SimulationError(f"vocabulary: {form!r} names two entities")
    return terms


DOMAINS = parse_vocabulary(shipped(VOCABULARY_FILE).read_text(encoding="utf-8"))
TERMS = term_index(DOMAINS)


def find_term(name: str) -> Term:
    """The entity with this canonical name."""
    if name not in TERMS:
        raise SimulationError(f"unknown simulated entity {name!r}")
    return TERMS[name]


def find_domain(name: str) -> Domain:
    return next(d for d in DOMAINS if d.name == name)

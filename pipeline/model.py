"""Plain records shared by every stage: queries, evidence, edges, paths and labels.

Nothing here touches a database or the network, so the math and the stores can be
tested on hand-built objects (SPEC §2-3).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from functools import lru_cache

MAX_NAME_CHARS = 300
MAX_SENTENCE_CHARS = 5_000


class InvalidEvidence(ValueError):
    """An evidence row that must not reach the graph; the message says which and why."""


class Polarity(IntEnum):
    """Effect direction of a causal edge: +1 increases, -1 decreases, 0 no effect."""

    DECREASES = -1
    NO_EFFECT = 0
    INCREASES = 1

    @classmethod
    def parse(cls, value: object) -> Polarity:
        """Accept +1/0/-1 (ints or their strings) and the names; anything else is an error."""
        aliases = {"+1": 1, "1": 1, "-1": -1, "0": 0, "increases": 1, "decreases": -1,
                   "no_effect": 0, "noeffect": 0, "none": 0}
        if isinstance(value, int) and not isinstance(value, bool) and value in (-1, 0, 1):
            return cls(value)
        if isinstance(value, str) and value.strip().lower() in aliases:
            return cls(aliases[value.strip().lower()])
        raise InvalidEvidence(f"unknown polarity {shown(value)} (use +1, 0 or -1)")


class Label(StrEnum):
    """Answer labels. With a desired direction the first three apply, else the next two
    replace Beneficial/Harmful. NO_EVIDENCE is a state (keep searching), not an answer."""

    BENEFICIAL = "Beneficial"
    NO_EFFECT = "NoEffect"
    HARMFUL = "Harmful"
    INCREASES = "Increases"
    DECREASES = "Decreases"
    NO_EVIDENCE = "NoEvidence"


SPLITS = ("train", "validation", "test")
"""A benchmark's splits: the PRM trains on train, thresholds are tuned on validation, and
the tables report test."""


def label_set(direction: Polarity | None) -> tuple[Label, Label, Label]:
    """The three answer labels in posterior order: (same as direction, null, opposite)."""
    if direction is None:
        return (Label.INCREASES, Label.NO_EFFECT, Label.DECREASES)
    return (Label.BENEFICIAL, Label.NO_EFFECT, Label.HARMFUL)


def label_index(polarity: int, direction: Polarity | None) -> int:
    """Posterior slot of a composed polarity: 0 agrees with the direction, 1 null, 2 opposite."""
    if polarity == 0:
        return 1
    reference = 1 if direction is None else int(direction)
    return 0 if polarity == reference else 2


_SPACE = re.compile(r"\s+")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")  # Unicode category Cc, exactly
# Bidi controls (they reorder what is shown) and lone surrogates (not encodable as UTF-8).
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_EXTRACTOR_CHARS = 100
MAX_YEAR = 9999
MAX_STEP = 2**63 - 1  # the largest integer both stores hold


def shown(value: object, limit: int = 60) -> str:
    """A value's repr, cut short, for one-line error messages."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's digit limit
        return f"an integer of over {limit} digits"
    return text if len(text) <= limit else text[:limit] + "..."


def normalise_name(name: str) -> str:
    """Surface-form node id: NFKC, case-folded, whitespace collapsed (SPEC §2)."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", name)).strip().casefold()


def check_text(value: object, role: str, max_chars: int | None,
               printable: bool = False) -> str:
    """Text a store can hold: a string, at most max_chars long, encodable as UTF-8; with
    printable, also without control or bidi characters."""
    if not isinstance(value, str):
        raise InvalidEvidence(f"{role} must be text, got {type(value).__name__}")
    if max_chars is not None and len(value) > max_chars:
        raise InvalidEvidence(f"{role} is {len(value)} characters long (at most {max_chars})")
    if _SURROGATE.search(value):
        raise InvalidEvidence(f"{role} contains a lone surrogate (not valid Unicode text)")
    if printable and _CONTROL.search(value):
        raise InvalidEvidence(f"{role} contains control characters")
    if printable and _BIDI.search(value):
        raise InvalidEvidence(f"{role} contains bidirectional control characters")
    return value


def check_name(name: object, role: str) -> str:
    """Entity names are stored as data; they must be non-empty, short (also once
    normalised: NFKC can expand one character to 18) and printable."""
    stripped = check_text(name, role, None, printable=True).strip()
    if not stripped:
        raise InvalidEvidence(f"{role} is empty")
    if len(stripped) > MAX_NAME_CHARS:
        raise InvalidEvidence(
            f"{role} is {len(stripped)} characters long (at most {MAX_NAME_CHARS})")
    normalised = len(normalise_name(stripped))
    if normalised > MAX_NAME_CHARS:
        raise InvalidEvidence(f"{role} is {normalised} characters long once normalised "
                              f"(at most {MAX_NAME_CHARS})")
    return stripped


def check_int(value: object, role: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidEvidence(f"{role} must be an integer in [{low}, {high}], "
                              f"got {shown(value)}")
    return value


def check_confidence(value: object) -> float:
    """Per-extraction confidence s must lie in [0, 1) (Lemma 1 needs s < 1)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidEvidence(f"confidence must be a number in [0, 1), got {shown(value)}")
    if not 0 <= value < 1:  # compared before float(): a huge int cannot be converted
        raise InvalidEvidence(f"confidence must be in [0, 1), got {shown(value)}")
    return float(value)


def check_pmid(value: object) -> str:
    """PMIDs (and other document ids) are short ASCII alphanumeric ids, as text or integer."""
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(
        value, bool) else ""
    if not text or not text.isascii() or not text.isalnum() or len(text) > 32:
        raise InvalidEvidence(f"PMID must be a short alphanumeric id, got {shown(value)}")
    return text


@dataclass(frozen=True, slots=True)
class Entity:
    """A resolved node: stable id (MeSH UI when grounded, else the normalised name).
    aliases are other surface forms (synonyms, abbreviations) that mean this node, so the
    extractor maps them to this id; they do not take part in equality."""

    id: str
    name: str
    grounded: bool = False
    aliases: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_name(cls, name: str, role: str = "entity",
                  aliases: tuple[str, ...] = ()) -> Entity:
        clean = check_name(name, role)
        return cls(id=normalise_name(clean), name=clean,
                   aliases=tuple(a for a in aliases if a.strip()))


@dataclass(frozen=True, slots=True)
class Evidence:
    """One extracted causal claim: head -> tail with polarity, from one PMID's sentence."""

    head: Entity
    tail: Entity
    polarity: Polarity
    confidence: float
    pmid: str
    sentence: str = ""
    extractor: str = "unknown"
    year: int | None = None
    step: int = 0

    @property
    def edge_key(self) -> tuple[str, str, int]:
        return (self.head.id, self.tail.id, int(self.polarity))


def _named_entity(name: object, role: str) -> Entity:
    """Entity.from_name for a raw value; names are remembered, since extractors name the
    same entities again and again (an invalid one raises every time)."""
    return _entity_named(name if isinstance(name, str) else check_name(name, role), role)


@lru_cache(maxsize=65_536)
def _entity_named(name: str, role: str) -> Entity:
    return Entity.from_name(name, role)


def make_evidence(head: object, tail: object, polarity: object, confidence: object,
                  pmid: object, sentence: object = "", extractor: object = "unknown",
                  year: object = None, step: object = 0) -> Evidence:
    """Validate raw values into an Evidence: every field's type and range, so nothing
    reaches a store that it cannot hold. Raises InvalidEvidence with a one-line reason."""
    head_entity = _named_entity(head, "head entity")
    tail_entity = _named_entity(tail, "tail entity")
    if head_entity.id == tail_entity.id:
        raise InvalidEvidence(f"head and tail are the same entity ({shown(head_entity.name)})")
    return Evidence(head_entity, tail_entity, Polarity.parse(polarity),
                    check_confidence(confidence), check_pmid(pmid),
                    check_text(sentence, "sentence", MAX_SENTENCE_CHARS),
                    check_text(extractor, "extractor", MAX_EXTRACTOR_CHARS, printable=True),
                    None if year is None else check_int(year, "year", 0, MAX_YEAR),
                    check_int(step, "step", 0, MAX_STEP))


def compose_polarity(polarities: tuple[int, ...] | list[int]) -> int:
    """Polarity along a path multiplies: (+)(-) = (-), (-)(-) = (+), and 0 absorbs."""
    return math.prod(polarities)


@dataclass(frozen=True, slots=True)
class EdgeBelief:
    """A directed edge of one polarity with its noisy-OR belief over distinct PMIDs."""

    head: str
    tail: str
    polarity: int
    belief: float
    pmids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    """One PMID's support for an edge, as the graph keeps it (provenance for answers)."""

    pmid: str
    confidence: float
    sentence: str
    year: int | None


@dataclass(frozen=True, slots=True)
class CausalPath:
    """A direct (k=1) or two-hop (k=2) route from the query's E1 to E2."""

    nodes: tuple[str, ...]
    polarities: tuple[int, ...]
    beliefs: tuple[float, ...]
    strength: float

    @property
    def hops(self) -> int:
        return len(self.polarities)

    @property
    def polarity(self) -> int:
        return compose_polarity(self.polarities)


@dataclass(frozen=True, slots=True)
class GraphStats:
    """Whole-namespace counts used by the global and conflict features (SPEC §4)."""

    nodes: int
    edges: int
    evidence: int
    pmids: int
    entity_pairs: int
    conflicting_pairs: int
    mean_belief: float

    @property
    def density(self) -> float:
        possible = self.nodes * (self.nodes - 1)
        return self.edges / possible if possible else 0.0


@dataclass(frozen=True, slots=True)
class Query:
    """A causal question: does E1 affect E2 (optionally vs a comparator, in a direction)?"""

    intervention: Entity
    outcome: Entity
    comparator: Entity | None = None
    direction: Polarity | None = None
    constraints: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Abstract:
    """One retrieved article as the extractor sees it (title + abstract text)."""

    pmid: str
    title: str
    text: str
    year: int | None = None
    publication_types: tuple[str, ...] = ()
    mesh: tuple[str, ...] = ()

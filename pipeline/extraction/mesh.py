"""MeSH as a gazetteer and a grounding target: descriptors with their entry terms, looked up
verbatim, up to case, after light normalisation, and through the TF-IDF linker
(pipeline.extraction.linker).

Sources: the descriptor/term table (`mesh2024_descriptor_terms.tsv.gz`, one row per term)
or NLM's descriptor XML (`desc2024.xml[.gz]`) for users who download MeSH themselves.
"""

from __future__ import annotations

import csv
import gzip
import os
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from pipeline.extraction.lexicon import GENERIC_OUTCOME_WORDS
from pipeline.resources import SHARED_DATA

if TYPE_CHECKING:  # the linker pulls in scikit-learn and nmslib: import it when used
    from pipeline.extraction.linker import LinkCandidate, MeshLinker

MESH_ENV = "DACG_MESH"
SHARED_MESH = SHARED_DATA / "mesh" / "mesh2024_descriptor_terms.tsv.gz"
LINK_THRESHOLD = 0.92  # cosine of char-3-gram TF-IDF; below it drug names get confused
WINDOW_THRESHOLD = 0.92  # a part of the name must match a term nearly verbatim
# Words that name a measure of something rather than the thing ("density of mosquitoes").
MEASURE_WORDS = GENERIC_OUTCOME_WORDS | {"density", "abandonment", "freedom", "maintenance",
                                         "uptake", "gain", "use", "prevention", "control",
                                         "management", "relief", "length", "speed",
                                         "recurrence", "supplementation", "administration",
                                         "infusion", "intake"}

_PAREN = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")
_DASHES = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-",
                         "\u2014": "-", "\u2212": "-", "\u00a0": " "})
_TRAILING_QUALIFIER = re.compile(
    r"\s+(?:at|after|during|over|within|by|in)\s+(?:the\s+)?(?:end\b|\d|one\b|two\b|three\b|"
    r"six\b|twelve\b|first\b|long-term\b|short-term\b|follow-up\b|\w+-(?:month|week|year|day)"
    r"\b|(?:\w+\s+)?(?:months?|weeks?|years?|days?|hours?)\b).*$")
_LEADING_MEASURE = re.compile(
    r"^(?:the\s+)?(?:(?:overall|total|mean|median|average)\s+)?(?:(?:rate|rates|incidence|"
    r"risk|number|levels?|duration|occurrence|prevalence|frequency|severity|likelihood|"
    r"proportion|changes?|amount)\s+(?:of|in)\s+)?")
_MESH_QUALIFIER = re.compile(r"/[a-z][a-z ,]*$")
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[\w'-]+")
# British spellings -> MeSH's American ones (linker tier).
_SPELLING = [(re.compile(p), r) for p, r in (
    (r"\b(an|h|pal)ae", r"\1e"), (r"aem", "em"), (r"oesoph", "esoph"), (r"oedem", "edem"),
    (r"paed", "ped"), (r"isation\b", "ization"), (r"ise\b", "ize"), (r"ised\b", "ized"),
    (r"ising\b", "izing"),
    (r"our\b", "or"), (r"ogue\b", "og"), (r"tre\b", "ter"), (r"foet", "fet"),
    (r"oestr", "estr"), (r"diarrhoea", "diarrhea"), (r"ischaem", "ischem"))]
_SYNONYM_SWAPS = (("treatment", "therapy"), ("cancer", "neoplasms"), ("tumor", "neoplasms"))


def fold(text: str) -> str:
    """Case folding and unicode clean-up only (the 'exact up to case' view)."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return " ".join(text.split()).casefold()


def _american(text: str) -> str:
    for pattern, replacement in _SPELLING:
        text = pattern.sub(replacement, text)
    return text


def singular(text: str) -> str:
    """'deaths' -> 'death', 'therapies' -> 'therapy' (last word only)."""
    head, _, last = text.rpartition(" ")
    if len(last) > 4 and last.endswith("ies"):
        last = last[:-3] + "y"
    elif len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is")):
        last = last[:-1]
    return f"{head} {last}".strip()


def _term_key(term: str) -> str:
    """The dictionary key of a MeSH entry term: folded, parentheticals and a trailing
    '/subheading' removed (the query side also strips measure words; see
    normalise_term)."""
    key = fold(term)
    if "(" in key or "[" in key:
        key = _PAREN.sub("", key)
    if "/" in key:
        key = _MESH_QUALIFIER.sub("", key)
    return key.strip(" .,;:-")


def normalise_term(text: str) -> str:
    """Light normalisation (SPEC §8): case folding, parenthetical stripping, and qualifier
    stripping: MeSH '/subheading', trailing time qualifiers ('at 12 months', 'at the end
    of intervention') and leading measure words ('rate of', 'risk of', 'mean')."""
    text = fold(text)
    text = _PAREN.sub("", text)
    text = _MESH_QUALIFIER.sub("", text)
    text = _TRAILING_QUALIFIER.sub("", text)
    text = _LEADING_MEASURE.sub("", text)
    return _SPACE.sub(" ", text).strip(" .,;:-")


def _acronym(term: str) -> bool:
    return len(term) <= 8 and sum(ch.isupper() for ch in term) >= 2 and " " not in term


def uninvert(term: str) -> str | None:
    """MeSH writes 'Cyst, Lymphatic'; text says 'lymphatic cyst'."""
    parts = [p.strip() for p in term.split(",")]
    if len(parts) == 2 and all(p and len(p.split()) <= 3 for p in parts):
        return f"{parts[1]} {parts[0]}"
    return None


@dataclass(frozen=True, slots=True)
class Descriptor:
    """A MeSH descriptor: its UI (the node id when grounded), name and entry terms."""

    ui: str
    name: str
    terms: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Grounding:
    """How a surface form reached a descriptor: method is 'exact' (verbatim), 'folded'
    (up to case), 'normalised' or 'linker'; score is the linker's cosine (1.0 for the
    dictionary methods)."""

    descriptor: Descriptor
    method: str
    score: float
    matched: str

    @property
    def ui(self) -> str:
        return self.descriptor.ui


class MeshError(ValueError):
    """A MeSH source that cannot be read; the message names the file and the problem."""


def _open_text(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def _from_tsv(path: Path) -> Iterator[Descriptor]:
    terms: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    with _open_text(path) as handle:
        reader = csv.reader(handle, delimiter="\t")
        header = next(reader, [])
        missing = {"DescriptorUI", "DescriptorName", "TermName"} - set(header)
        if missing:
            raise MeshError(f"{path.name}: missing columns {sorted(missing)}")
        at_ui, at_name, at_term = (header.index(c) for c in (
            "DescriptorUI", "DescriptorName", "TermName"))
        for row in reader:
            if len(row) <= max(at_ui, at_name, at_term):
                continue
            ui = row[at_ui]
            names[ui] = row[at_name]
            terms.setdefault(ui, []).append(row[at_term])
    for ui, name in names.items():
        yield Descriptor(ui, name, tuple(dict.fromkeys([name, *terms[ui]])))


def _from_xml(path: Path) -> Iterator[Descriptor]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        for _, element in ET.iterparse(handle, events=("end",)):
            if element.tag != "DescriptorRecord":
                continue
            ui = element.findtext("DescriptorUI") or ""
            name = element.findtext("DescriptorName/String") or ""
            terms = [t.text or "" for t in element.iterfind(
                "ConceptList/Concept/TermList/Term/String")]
            if ui and name:
                yield Descriptor(ui, name, tuple(dict.fromkeys([name, *filter(None, terms)])))
            element.clear()


class MeshTable:
    """All descriptors, with the dictionaries for exact and normalised lookup."""

    def __init__(self, descriptors: Iterable[Descriptor], source: str = "") -> None:
        self.descriptors = {d.ui: d for d in descriptors}
        self.source = source
        self._exact: dict[str, str] = {}
        self._folded: dict[str, str] = {}
        self._normal: dict[str, str] = {}
        for d in sorted(self.descriptors.values(), key=lambda d: d.ui):
            for term in d.terms:
                self._exact.setdefault(term, d.ui)
                self._folded.setdefault(fold(term), d.ui)
            for term in self.aliases(d):
                if not _acronym(_PAREN.sub("", term)):  # "NETs" must not answer "nets"
                    self._normal.setdefault(_term_key(term), d.ui)
        for d in self.descriptors.values():  # a descriptor's own name wins ties
            self._exact[d.name] = d.ui
            self._folded[fold(d.name)] = d.ui
            self._normal[_term_key(d.name)] = d.ui

    @classmethod
    def read(cls, path: Path | str) -> MeshTable:
        path = Path(path)
        if not path.is_file():
            raise MeshError(f"MeSH file {path} does not exist")
        reader = _from_xml if ".xml" in path.suffixes else _from_tsv
        try:
            table = cls(reader(path), source=str(path))
        except (OSError, ET.ParseError, csv.Error, UnicodeDecodeError) as exc:
            raise MeshError(f"{path.name}: {exc}") from None
        if not table.descriptors:
            raise MeshError(f"{path.name}: no MeSH descriptors found")
        return table

    @staticmethod
    def aliases(descriptor: Descriptor) -> list[str]:
        """Entry terms plus their uninverted forms."""
        out = list(descriptor.terms)
        known = set(out)
        for term in descriptor.terms:
            if "," in term and (plain := uninvert(term)) and plain not in known:
                known.add(plain)
                out.append(plain)
        return out

    def exact(self, text: str) -> Descriptor | None:
        ui = self._exact.get(text.strip())
        return self.descriptors[ui] if ui else None

    def folded(self, text: str) -> Descriptor | None:
        ui = self._folded.get(fold(text))
        return self.descriptors[ui] if ui else None

    def normalised(self, text: str) -> Descriptor | None:
        key = normalise_term(text)
        ui = self._normal.get(key) if key else None
        return self.descriptors[ui] if ui else None


def default_mesh_path() -> Path | None:
    """$DACG_MESH, else the shared MeSH table next to the project when present."""
    configured = os.environ.get(MESH_ENV)
    if configured:
        return Path(configured)
    return SHARED_MESH if SHARED_MESH.is_file() else None


class MeshIndex:
    """Grounding of surface forms to MeSH descriptors: exact, normalised, then linker."""

    def __init__(self, table: MeshTable, linker: MeshLinker | None = None) -> None:
        self.table = table
        self.linker = linker

    @classmethod
    def load(cls, path: Path | str | None = None, *, with_linker: bool = True,
             cache_dir: Path | None = None) -> MeshIndex:
        """Read the table; with the linker, load (or build once and cache) its index."""
        source = Path(path) if path else default_mesh_path()
        if source is None:
            raise MeshError(f"no MeSH file given (pass one or set {MESH_ENV})")
        table = MeshTable.read(source)
        if not with_linker:
            return cls(table)
        from pipeline.extraction.linker import MeshLinker

        linker = MeshLinker.load_or_build(
            {d.ui: (d.name, MeshTable.aliases(d)) for d in table.descriptors.values()},
            cache_dir)
        return cls(table, linker)

    def descriptor(self, ui: str) -> Descriptor | None:
        return self.table.descriptors.get(ui)

    def exact(self, text: str) -> Grounding | None:
        found = self.table.exact(text)
        return Grounding(found, "exact", 1.0, text) if found else None

    def folded(self, text: str) -> Grounding | None:
        found = self.table.folded(text)
        return Grounding(found, "folded", 1.0, fold(text)) if found else None

    def normalised(self, text: str) -> Grounding | None:
        found = self.table.normalised(text)
        return Grounding(found, "normalised", 1.0, normalise_term(text)) if found else None

    def link(self, text: str) -> Grounding | None:
        """The linker tier: the whole normalised name against all entry terms (cosine >=
        LINK_THRESHOLD), else the longest part of the name that a term matches almost
        verbatim (a dictionary hit, or cosine >= WINDOW_THRESHOLD)."""
        key = normalise_term(text)
        if not key:
            return None
        if self.linker is not None:
            best = self._best(self.linker.candidates([key])[0])
            if best is not None and best.score >= LINK_THRESHOLD:
                return Grounding(self.table.descriptors[best.ui], "linker", best.score, key)
        windows = _windows(key)
        for window in [key, *windows]:
            found = self._variant(window)
            if found is not None:
                return Grounding(found, "linker", 1.0, window)
        if self.linker is None or not windows:
            return None
        scored = self.linker.candidates(windows)
        for window, candidates in zip(windows, scored, strict=True):
            best = self._best(candidates)
            if best is not None and best.score >= WINDOW_THRESHOLD:
                return Grounding(self.table.descriptors[best.ui], "linker", best.score, window)
        return None

    def _variant(self, text: str) -> Descriptor | None:
        """A dictionary hit for a spelling, morphological or wording variant: American
        spelling, singular form, 'therapy' for 'treatment', 'neoplasms' for 'cancer'."""
        variants = [text, _american(text)]
        variants += [singular(v) for v in variants]
        for old, new in _SYNONYM_SWAPS:
            variants += [v.replace(old, new) for v in variants if old in v]
        for variant in variants:
            found = self.table.normalised(variant)
            if found is not None:
                return found
        return None

    def ground(self, text: str) -> Grounding | None:
        return (self.exact(text) or self.folded(text) or self.normalised(text)
                or self.link(text))

    def _best(self, candidates: list[LinkCandidate]) -> LinkCandidate | None:
        known = [c for c in candidates if c.ui in self.table.descriptors]
        return max(known, key=lambda c: (c.score, -len(c.alias)), default=None)


def _windows(key: str) -> list[str]:
    """Contiguous parts of a name, longest first, that hold a specific word (not only
    measure words like 'rate' or 'density'); the whole name itself is excluded. A single
    word must be the head of its phrase, not a modifier: 'mosquito' in 'adult mosquito
    density', not 'head' in 'head circumference gain'."""
    words = _WORD.findall(key)
    out: list[str] = []
    for size in range(len(words) - 1, 0, -1):
        for start in range(len(words) - size + 1):
            part = words[start:start + size]
            if part[0] in _EDGE_WORDS or part[-1] in _EDGE_WORDS:
                continue
            if all(w in MEASURE_WORDS or len(w) < 4 for w in part):
                continue
            following = words[start + size] if start + size < len(words) else ""
            if size == 1 and following and following not in _EDGE_WORDS | MEASURE_WORDS:
                continue
            out.append(" ".join(part))
    return out


_EDGE_WORDS = frozenset({"of", "and", "or", "in", "the", "to", "with", "for", "at", "on",
                         "by", "a", "an", "from", "plus", "versus", "vs"})

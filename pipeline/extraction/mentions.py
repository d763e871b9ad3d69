"""Where an entity is mentioned in a parsed abstract: exact surface forms first (the
entity's name, aliases, MeSH entry terms and the abstract's own abbreviations), then a
fuzzy match on content words, because outcomes are named loosely ("the incidence of
arthropathy during the extended phase" vs "psoriatic arthropathy per patient-year").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc

from pipeline.extraction.lexicon import GENERIC_OUTCOME_WORDS
from pipeline.extraction.text import clean_name
from pipeline.model import Entity

STEM_CHARS = 6
GENERIC_WEIGHT = 0.25
MAX_GAP = 3  # tokens between two keywords of one mention
MAX_PHRASE_TOKENS = 12
PATTERN_CACHE = 10_000

STOP_WORDS = frozenset({
    "the", "a", "an", "of", "in", "on", "and", "or", "with", "for", "to", "by", "at", "from",
    "as", "vs", "vs.", "versus", "plus", "alone", "its", "their", "this", "that", "than",
    "was", "were", "is", "are", "be", "been", "who", "which", "per", "each", "any", "all",
    "both", "only", "into", "via", "after", "before", "during", "within", "without", "not",
    "no", "s", "'s", "i", "we", "it", "other", "these", "those", "such", "using", "used",
    "receiving", "received", "given", "including", "included", "group", "groups", "arm",
    "arms", "patients", "participants", "subjects", "people", "children", "adults", "women",
    "men", "mg", "kg", "ml", "g", "h", "min", "day", "daily", "once", "twice", "weekly",
})
_PAREN = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")
_INSIDE_PAREN = re.compile(r"[(\[]([^()\[\],;]{1,20})[,;)\]]")
_WORD = re.compile(r"[\w-]+")


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A crude, fast stem: lower-case, plural -s dropped, cut to six characters, so that
    'infections'/'infection'/'infectious' and 'reduction'/'reduced' meet."""
    w = word.lower().strip(".,;:()[]'\"")
    if len(w) > 4:
        if w.endswith(("sses", "xes", "ches", "shes")):
            w = w[:-2]
        elif w.endswith("ies"):
            w = w[:-3] + "y"
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
    return w[:STEM_CHARS]


def _weight(word: str) -> float:
    if word.lower() in GENERIC_OUTCOME_WORDS or any(ch.isdigit() for ch in word):
        return GENERIC_WEIGHT
    return 1.0


@dataclass(frozen=True, slots=True)
class Terms:
    """How one entity can appear in text: exact phrases and, per phrase, weighted keyword
    stems for the fuzzy match."""

    entity: Entity
    phrases: tuple[str, ...]
    keywords: tuple[dict[str, float], ...]

    @classmethod
    def of(cls, entity: Entity, aliases: Iterable[str] = ()) -> Terms:
        """Exact phrases from the name, the entity's own aliases (the caller's synonyms)
        and `aliases` (e.g. MeSH entry terms); fuzzy keywords from the name and the
        entity's own aliases only, since long synonym lists would make them loose."""
        own = [v for text in (entity.name, *entity.aliases) for v in _variants(clean_name(text))]
        phrases: list[str] = []
        seen: set[str] = set()
        for variant in (*own, *(v for a in aliases for v in _variants(a))):
            if variant and variant.lower() not in seen:
                seen.add(variant.lower())
                phrases.append(variant)
        keywords: list[dict[str, float]] = []
        for phrase in own:
            found = _keywords(phrase)
            if found and found not in keywords:
                keywords.append(found)
        return cls(entity, tuple(phrases), tuple(keywords))

    def without(self, stems: set[str]) -> Terms:
        """The same entity with some keywords dropped: words two arms share ('homeopathic
        syrup' in both) cannot tell the arms apart."""
        if not stems:
            return self
        kept = tuple(k for k in ({s: w for s, w in kw.items() if s not in stems}
                                 for kw in self.keywords) if k)
        return Terms(self.entity, self.phrases, kept)

    @property
    def stems(self) -> set[str]:
        return {s for kw in self.keywords for s in kw}

    def with_keywords(self, phrases: Iterable[str]) -> Terms:
        """Fuzzy keywords from more phrases (the name with its abbreviations spelled out)."""
        extra = tuple(k for k in (_keywords(p) for p in dict.fromkeys(phrases))
                      if k and k not in self.keywords)
        return Terms(self.entity, self.phrases, self.keywords + extra) if extra else self

    def with_aliases(self, aliases: Iterable[str]) -> Terms:
        known = {p.lower() for p in self.phrases}
        extra = [a for a in aliases if a and a.lower() not in known]
        if not extra:
            return self
        return Terms(self.entity, (*self.phrases, *dict.fromkeys(extra)), self.keywords)


def _variants(text: str) -> list[str]:
    """'percutaneous ethanol injection (PEI)' -> itself, 'percutaneous ethanol injection',
    'PEI'."""
    text = " ".join(text.split())
    out = [text]
    stripped = _PAREN.sub("", text).strip()
    if stripped and stripped != text:
        out.append(stripped)
    out += [m.strip() for m in _INSIDE_PAREN.findall(text) if _looks_like_abbreviation(m)]
    return out


def _looks_like_abbreviation(text: str) -> bool:
    text = text.strip()
    return 1 < len(text) <= 12 and " " not in text and any(ch.isupper() for ch in text)


def _keywords(phrase: str) -> dict[str, float]:
    """Weighted keyword stems; measure words ('rate', 'mean') weigh GENERIC_WEIGHT."""
    return dict(_keyword_items(phrase))


@lru_cache(maxsize=16_384)
def _keyword_items(phrase: str) -> tuple[tuple[str, float], ...]:
    words = [w for w in _WORD.findall(phrase) if w.lower() not in STOP_WORDS]
    found: dict[str, float] = {}
    for word in words[:MAX_PHRASE_TOKENS]:
        key = stem(word)
        if key:
            found[key] = max(found.get(key, 0.0), _weight(word))
    return tuple(found.items())


@dataclass(frozen=True, slots=True)
class Mention:
    """A token range in the doc; score 1.0 for an exact form, else keyword coverage.
    `hits` are the tokens that matched (all of them for an exact form): the words in
    between ('debris extruded significantly less') may be the cue itself."""

    start: int
    end: int
    score: float
    hits: tuple[int, ...] = ()

    @property
    def exact(self) -> bool:
        return self.score >= 1.0

    @property
    def tokens(self) -> tuple[int, ...]:
        return self.hits or tuple(range(self.start, self.end))


class MentionFinder:
    """Finds mentions of a few entities in one doc. Exact forms go through a spaCy
    PhraseMatcher (case-insensitive; abbreviations case-sensitive)."""

    def __init__(self, nlp: Language) -> None:
        self.nlp = nlp
        self._patterns: dict[str, Doc] = {}

    def expand_abbreviations(self, doc: Doc, terms: Terms) -> Terms:
        """Add the abstract's own short forms for the entity's long forms (and back)."""
        abbreviations = getattr(doc._, "abbreviations", None) if doc.has_extension(
            "abbreviations") else None
        if not abbreviations:
            return terms
        lowered = {p.lower() for p in terms.phrases}
        extra: list[str] = []
        spelled: list[str] = []
        for short in abbreviations:
            long_form = short._.long_form
            if long_form is None:
                continue
            long_text = long_form.text
            if short.text.lower() in lowered or long_text.lower() in lowered:
                extra += [short.text, long_text]
            elif _coverage(_keywords(long_text), terms) >= 0.75:
                extra.append(short.text)
            else:  # 'The MST of stage II NSCLC' -> 'The median survival time of ...'
                word = re.compile(rf"(?<![\w-]){re.escape(short.text)}(?![\w-])")
                spelled += [word.sub(long_text, p) for p in terms.phrases[:2]
                            if word.search(p)]
        return terms.with_aliases(extra).with_keywords(spelled)

    def exact(self, doc: Doc, terms: Terms) -> list[Mention]:
        lower = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        cased = PhraseMatcher(self.nlp.vocab, attr="ORTH")
        for phrase in terms.phrases:
            pattern = self._pattern(phrase)
            if len(pattern) == 0 or len(pattern) > 3 * MAX_PHRASE_TOKENS:
                continue
            target = cased if _looks_like_abbreviation(phrase) else lower
            target.add("T", [pattern])
        spans = [Mention(s, e, 1.0) for _, s, e in (*lower(doc), *cased(doc))]
        return _longest(spans)

    def _pattern(self, phrase: str) -> Doc:
        """Tokenised phrases, remembered (a query's names recur in every abstract)."""
        if phrase not in self._patterns:
            if len(self._patterns) > PATTERN_CACHE:
                self._patterns.clear()
            self._patterns[phrase] = self.nlp.make_doc(phrase)
        return self._patterns[phrase]

    def fuzzy(self, start: int, end: int, stems: Sequence[str], terms: Terms,
              threshold: float) -> list[Mention]:
        """Clusters of the entity's keywords (gap <= MAX_GAP) whose weighted coverage
        reaches `threshold`; at least one non-generic keyword must be present."""
        best: list[Mention] = []
        for keywords in terms.keywords:
            total = sum(keywords.values())
            hits = [(i, keywords[stems[i]]) for i in range(start, end)
                    if stems[i] in keywords]
            for cluster in _clusters(hits):
                cluster = _trim(cluster)
                covered = {stems[i]: w for i, w in cluster}
                if max(covered.values()) < 1.0:
                    continue
                score = min(0.99, sum(covered.values()) / total)
                if score >= threshold:
                    best.append(Mention(cluster[0][0], cluster[-1][0] + 1, score,
                                        tuple(i for i, _ in cluster)))
        return _longest(best)


def _coverage(keywords: dict[str, float], terms: Terms) -> float:
    """How much of any of the entity's phrases a keyword set covers."""
    scores = [sum(w for k, w in phrase.items() if k in keywords) / sum(phrase.values())
              for phrase in terms.keywords if phrase]
    return max(scores, default=0.0)


def _clusters(hits: list[tuple[int, float]]) -> list[list[tuple[int, float]]]:
    groups: list[list[tuple[int, float]]] = []
    for hit in hits:
        if groups and hit[0] - groups[-1][-1][0] <= MAX_GAP + 1:
            groups[-1].append(hit)
        else:
            groups.append([hit])
    return groups


def _trim(cluster: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """Drop measure words ('levels', 'rate') that hang off a cluster's ends across a gap:
    'nitric oxide levels, and lower levels' is about nitric oxide."""
    while len(cluster) > 1 and cluster[-1][1] < 1.0 and cluster[-1][0] - cluster[-2][0] > 1:
        cluster = cluster[:-1]
    while len(cluster) > 1 and cluster[0][1] < 1.0 and cluster[1][0] - cluster[0][0] > 1:
        cluster = cluster[1:]
    return cluster


def _longest(mentions: list[Mention]) -> list[Mention]:
    """Non-overlapping mentions, best score then longest first, in reading order."""
    chosen: list[Mention] = []
    taken: set[int] = set()
    for m in sorted(mentions, key=lambda m: (-m.score, m.start - m.end)):
        span = range(m.start, m.end)
        if not any(i in taken for i in span):
            taken.update(span)
            chosen.append(m)
    return sorted(chosen, key=lambda m: m.start)

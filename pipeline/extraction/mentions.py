"""Where an entity is mentioned in a parsed abstract: exact surface forms first (the
entity's name, aliases, MeSH entry terms and the abstract's own abbreviations), then a
fuzzy match on content words, because outcomes are named loosely ("the incidence of
arthropathy during the extended phase" vs "psoriatic arthropathy per patient-year").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy
from scispacy.abbreviation import find_abbreviation, short_form_filter
from spacy.attrs import LOWER, ORTH
from spacy.language import Language
from spacy.tokens import Doc

from pipeline.extraction.group_labels import GROUP_LABEL, group_labels
from pipeline.extraction.lexicon import (
    COUNT_WORDS,
    DOSE_UNITS,
    GENERIC_OUTCOME_WORDS,
    HYPHEN_PREFIXES,
    SAME_OUTCOME_WORDS,
    STOP_WORDS,
)
from pipeline.extraction.synonyms import (
    COMMON_ABBREVIATIONS,
    SAME_OUTCOME_PHRASES,
    reworded_change,
)
from pipeline.extraction.text import clean_name
from pipeline.model import Entity

STEM_CHARS = 6
GENERIC_WEIGHT = 0.25
MAX_GAP = 3  # tokens between two keywords of one mention
WHOLE_FUZZY_SCORE = 0.99  # a fuzzy mention with every keyword: just below an exact form
MAX_PHRASE_TOKENS = 12
PATTERN_CACHE = 10_000

# The second half of compound adjectives ('drug-induced', 'age-related').
LINKING_WORDS = frozenset({"related", "associated", "induced", "based", "specific",
                           "dependent", "like", "free", "derived", "mediated"})
_PAREN = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")
_INSIDE_PAREN = re.compile(r"[(\[]([^()\[\],;]{1,20})[,;)\]]")
_WORD = re.compile(r"[\w-]+")


# British spellings of one word -> the American ones (Cochrane's questions are British,
# many abstracts American): 'oedema'/'edema', 'tumour'/'tumor', 'anaemia'/'anemia'.
_BRITISH = tuple((re.compile(p), r) for p, r in (
    (r"^(an|h|f)ae", r"\1e"), (r"aem", "em"), (r"^caes", "ces"), (r"naec", "nec"),
    (r"paed", "ped"), (r"^aet", "et"), (r"^oe(dem|soph|str)", r"e\1"), (r"^foet", "fet"),
    (r"^coel", "cel"), (r"oea$", "ea"), (r"(?<=\w{2})our$", "or"),
    (r"(?<=(ent|lit|met|fib))re$", "er"), (r"ys(e|ed|es|ing)$", r"yz\1")))
_MAYBE_BRITISH = re.compile(r"ae|oe|our$|re$|ys")  # a quick test before the table


def american(word: str) -> str:
    """A lower-case word in American spelling (words of four letters or fewer as they
    are: 'hour', 'four')."""
    if len(word) <= 4 or not _MAYBE_BRITISH.search(word):
        return word
    for pattern, replacement in _BRITISH:
        word = pattern.sub(replacement, word)
    return word


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A crude, fast stem: lower-case, American spelling, plural -s dropped, cut to six
    characters, so that 'infections'/'infection'/'infectious', 'reduction'/'reduced' and
    'tumours'/'tumor' meet; words that name the same outcome ('mortality', 'died') take
    one stem ('death')."""
    w = word.lower().strip(".,;:()[]'\"")
    w = SAME_OUTCOME_WORDS.get(w, w)
    if len(w) > 4:
        if w.endswith(("sses", "xes", "ches", "shes")):
            w = w[:-2]
        elif w.endswith("ies"):
            w = w[:-3] + "y"
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
    return american(w)[:STEM_CHARS]


def _weight(word: str) -> float:
    """Measure words and amounts ('6', '24h', 'five') weigh little; a name with digits in it
    ('A1C', 'IL6', 'CD4') is an analyte and weighs in full."""
    lowered = word.lower()
    if lowered in GENERIC_OUTCOME_WORDS or lowered in COUNT_WORDS or word[:1].isdigit():
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

    def without(self, stems: set[str], phrases: set[str] | None = None) -> Terms:
        """The same entity with some keywords (and lower-case phrases) dropped: words two
        arms share ('homeopathic syrup' in both) cannot tell the arms apart."""
        if not stems and not phrases:
            return self
        kept = tuple(k for k in ({s: w for s, w in kw.items() if s not in stems}
                                 for kw in self.keywords) if k)
        named = tuple(p for p in self.phrases if p.lower() not in (phrases or ()))
        return Terms(self.entity, named, kept)

    @property
    def stems(self) -> set[str]:
        return {s for kw in self.keywords for s in kw}

    def with_keywords(self, phrases: Iterable[str]) -> Terms:
        """Fuzzy keywords from more phrases (the name with its abbreviations spelled out)."""
        return self.with_keyword_sets(_keywords(p) for p in dict.fromkeys(phrases))

    def with_keyword_sets(self, sets: Iterable[dict[str, float]]) -> Terms:
        """More fuzzy keyword sets, as they are (`expand_abbreviations`' shortened ones)."""
        extra = tuple(k for k in sets if k and k not in self.keywords)
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
    out += [m.strip() for m in _INSIDE_PAREN.findall(text)
            if _looks_like_abbreviation(m) or _names_a_scale(m) or GROUP_LABEL.match(m.strip())]
    return out


def bracketed_short_forms(name: str) -> list[tuple[str, str]]:
    """The short forms a name gives in brackets, each with the word before it
    ('improvement in depression severity (CGI-BP)' -> [('severity', 'CGI-BP')])."""
    return [(before[-1], match[1].strip()) for match in _INSIDE_PAREN.finditer(name)
            if (before := name[:match.start()].split()) and _looks_like_abbreviation(match[1])]


def _looks_like_abbreviation(text: str) -> bool:
    text = text.strip()
    return 1 < len(text) <= 12 and " " not in text and any(ch.isupper() for ch in text)


def _names_a_scale(text: str) -> bool:
    """'functional autonomy (Barthel index)', 'airway responsiveness (AMP PC20)': a
    capitalised name of two or three words in brackets is the measure's own name ('Group
    I', an arm's label, is none)."""
    words = text.split()
    return 2 <= len(words) <= 3 and words[0][:1].isupper() and words[0].lower() not in (
        "at", "in", "for", "with", "all", "any", "the", "or", "and", "group", "arm")


# The share of an entity's phrase (weighted keywords) an abbreviation's long form must
# cover to stand for the entity.
ABBREVIATION_COVERAGE = 0.75


def _keywords(phrase: str) -> dict[str, float]:
    """Weighted keyword stems; measure words ('rate', 'mean') weigh GENERIC_WEIGHT."""
    return dict(_keyword_items(phrase))


@lru_cache(maxsize=16_384)
def _keyword_items(phrase: str) -> tuple[tuple[str, float], ...]:
    words = [w for w in _WORD.findall(phrase) if w.lower() not in STOP_WORDS]
    found: dict[str, float] = {}
    for word in _hyphen_parts(words[:MAX_PHRASE_TOKENS]):
        key = stem(word)
        if key:
            found[key] = max(found.get(key, 0.0), _weight(word))
    return tuple(found.items())


def _hyphen_parts(words: list[str]) -> list[str]:
    """The tokenizer splits 'LDL-C' and '6-month' at the hyphen, so a keyword must be
    split the same way to meet them ('LDL', '6', 'month'); one letter left alone ('C')
    would match any stray letter, and a linking or stop word ('SARS-CoV-2-related',
    'in-hospital') names nothing. Set phrases ('follow-up') stay whole and generic."""
    parts: list[str] = []
    for word in words:
        if "-" not in word or word.lower() in GENERIC_OUTCOME_WORDS:
            parts.append(word)
        elif _prefix_compound(*word.lower().split("-", 1)):
            parts.append(word.replace("-", ""))  # one word, as the doc's are joined
        else:
            parts += [p for p in word.split("-") if (len(p) > 1 or p.isdigit())
                      and p.lower() not in LINKING_WORDS and p.lower() not in STOP_WORDS]
    return parts


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


class DocTokens:
    """A doc's token ids (lower-case, and as written), for exact phrase lookups."""

    __slots__ = ("doc", "_ids")

    def __init__(self, doc: Doc, lower: numpy.ndarray | None = None) -> None:
        self.doc = doc
        self._ids: list[numpy.ndarray | None] = [lower, None]

    def ids(self, cased: bool) -> numpy.ndarray:
        ids = self._ids[cased]
        if ids is None:
            ids = self._ids[cased] = self.doc.to_array(ORTH if cased else LOWER)
        return ids


class MentionFinder:
    """Finds mentions of a few entities in one doc. Exact forms match whole tokens
    (case-insensitive; abbreviations case-sensitive), as a spaCy PhraseMatcher would."""

    def __init__(self, nlp: Language) -> None:
        self.nlp = nlp
        self._patterns: dict[str, tuple[tuple[numpy.uint64, list[int]], ...]] = {}

    def expand_abbreviations(self, abbreviations: Sequence[tuple[str, str]],
                             terms: Terms) -> Terms:
        """Add the abstract's own short forms for the entity's long forms (and back);
        `abbreviations` are the doc's (short, long) pairs (`abbreviation_pairs`)."""
        if not abbreviations:
            return terms
        lowered = {p.lower() for p in terms.phrases}
        extra = _labels_of(terms, [(short, _keywords(long)) for short, long in abbreviations
                                   if GROUP_LABEL.match(short)])
        spelled: list[str] = []
        shortened: list[dict[str, float]] = []
        for short_text, long_text in abbreviations:
            if GROUP_LABEL.match(short_text):
                continue
            if short_text.lower() in lowered or long_text.lower() in lowered:
                extra += [short_text, long_text]
            elif _names_the_entity(_keywords(long_text), terms):
                extra.append(short_text)
            else:  # 'The MST of stage II NSCLC' -> 'The median survival time of ...'
                spelled += [swapped for p in terms.phrases[:2]
                            if (swapped := _swap_word(p, short_text, long_text))]
                shortened += _shortened(short_text, _keywords(long_text), terms)
        return terms.with_aliases(extra).with_keywords(spelled).with_keyword_sets(shortened)

    def exact(self, tokens: DocTokens | Doc, terms: Terms) -> list[Mention]:
        """Exact forms: the matches of a spaCy PhraseMatcher on LOWER (on ORTH for
        abbreviations), looked up in the doc's token ids: building two PhraseMatchers per
        entity and abstract cost more than the lookups."""
        if isinstance(tokens, Doc):
            tokens = DocTokens(tokens)
        found: tuple[set[tuple[int, int]], set[tuple[int, int]]] = (set(), set())
        for phrase in terms.phrases:
            cased = _looks_like_abbreviation(phrase)
            first, sequence = self._pattern(phrase)[cased]
            size = len(sequence)
            if size == 0 or size > 3 * MAX_PHRASE_TOKENS:
                continue
            ids = tokens.ids(cased)
            for start in numpy.flatnonzero(ids == first).tolist():
                if size == 1 or ids[start:start + size].tolist() == sequence:
                    found[cased].add((start, start + size))
        spans = [Mention(s, e, 1.0) for s, e in (*sorted(found[0]), *sorted(found[1]))]
        return _longest(spans)

    def _pattern(self, phrase: str) -> tuple[tuple[numpy.uint64, list[int]], ...]:
        """A phrase's token ids, lower-case and as written, each as (first id, all ids),
        remembered (a query's names recur in every abstract)."""
        if phrase not in self._patterns:
            if len(self._patterns) > PATTERN_CACHE:
                self._patterns.clear()
            doc = self.nlp.make_doc(phrase)
            self._patterns[phrase] = tuple(
                (numpy.uint64(ids[0]) if ids else numpy.uint64(0), ids)
                for ids in ([t.lower for t in doc], [t.orth for t in doc]))
        return self._patterns[phrase]

    @staticmethod
    def fuzzy(start: int, end: int, stems: Sequence[str], hits: DocHits,
              threshold: float) -> list[Mention]:
        """Clusters of the entity's keywords (gap <= MAX_GAP) whose weighted coverage
        reaches `threshold`; at least one non-generic keyword must be present. `hits` are
        the entity's keywords in the doc (`doc_hits`), found once for all its sentences."""
        best: list[Mention] = []
        for keywords, positions, weights in hits:
            if not positions:
                continue
            total = sum(keywords.values())
            low, high = bisect_left(positions, start), bisect_left(positions, end)
            if low == high:
                continue
            for cluster in _clusters(list(zip(positions[low:high], weights[low:high],
                                              strict=True)), stems):
                cluster = _trim(cluster)
                covered = {stems[i]: w for i, w in cluster}
                if max(covered.values()) < 1.0:
                    continue
                score = min(WHOLE_FUZZY_SCORE, sum(covered.values()) / total)
                if score >= threshold:
                    best.append(Mention(cluster[0][0], cluster[-1][0] + 1, score,
                                        tuple(i for i, _ in cluster)))
        return _longest(best)


# Per keyword set of an entity: the keywords, and the doc positions and weights of the
# tokens whose stem is one of them.
DocHits = list[tuple[dict[str, float], list[int], list[float]]]


def stem_positions(stems: Sequence[str], words: Sequence[str] = ()) -> dict[str, list[int]]:
    """Each stem's token positions in a doc, in order; a prefix compound the tokenizer
    split ('post - extubation') also as one word at its first token, so that it meets the
    same word written whole ('postextubation')."""
    positions: dict[str, list[int]] = {}
    for i, word_stem in enumerate(stems):
        positions.setdefault(word_stem, []).append(i)
    if "-" in words:
        for i in range(len(words) - 2):
            if words[i + 1] == "-" and _prefix_compound(words[i], words[i + 2]):
                joined = positions.setdefault(stem(words[i] + words[i + 2]), [])
                joined.append(i)
                joined.sort()
    return positions


def _prefix_compound(prefix: str, rest: str) -> bool:
    """'post-extubation', 'anti-arrhythmic', 'pre-eclampsia': a prefix the word is also
    written without a hyphen after ('preeclampsia')."""
    return prefix in HYPHEN_PREFIXES and rest.isalpha() and len(rest) > 3


def doc_hits(positions: dict[str, list[int]], terms: Terms) -> DocHits:
    """The doc positions of each of the entity's keyword sets (`stem_positions`)."""
    hits: DocHits = []
    for keywords in terms.keywords:
        found = sorted((i, weight) for keyword, weight in keywords.items()
                       for i in positions.get(keyword, ()))
        hits.append((keywords, [i for i, _ in found], [w for _, w in found]))
    return hits


def abbreviation_pairs(doc: Doc, text: str) -> list[tuple[str, str]]:
    """The (short form, long form) texts of scispacy's `doc._.abbreviations`, each pair
    once, in text order (scispacy's order follows Span hashes). `text` is the doc's text,
    which slices faster than Span.text builds it from Token objects."""
    if not doc.has_extension("abbreviations"):
        return []
    pairs: dict[tuple[str, str], None] = {}
    for short in sorted(doc._.abbreviations or (), key=lambda span: (span.start, span.end)):
        long_form = short._.long_form
        if long_form is not None:
            pairs.setdefault((text[short.start_char:short.end_char],
                              text[long_form.start_char:long_form.end_char]), None)
    for pair in _abbreviations_before_comma(doc, text):
        pairs.setdefault(pair, None)
    for pair in group_labels(text):
        pairs.setdefault(pair, None)
    defined = {short for short, _ in pairs}
    for pair in _common_abbreviations(text):
        if pair[0] not in defined:
            pairs.setdefault(pair, None)
    return list(pairs)


_COMMON_SHORT = re.compile(r"\b(?:" + "|".join(
    sorted({re.escape(short) for short, _ in COMMON_ABBREVIATIONS}, key=len, reverse=True))
    + r")\b")
_COMMON_SHORTS = frozenset(short for short, _ in COMMON_ABBREVIATIONS)
_WORD_RUN = re.compile(r"\w+")


def reworded(terms: Terms) -> Terms:
    """An entity named by a common abbreviation ('LVEF at 12 weeks') also by its long
    form, and one named by a review's word for an outcome ('adverse effects') also by the
    trial's ('side effects'), as phrases and keywords: the abstract may use only those."""
    name = terms.entity.name
    variants: list[str] = []
    if _COMMON_SHORT.search(name):
        variants += [swapped for short, long in COMMON_ABBREVIATIONS
                     if (swapped := _swap_word(name, short, long))]
    lowered = name.lower()
    variants += [swapped for one, other in SAME_OUTCOME_PHRASES
                 if (swapped := _swap_word(lowered, one, other))]
    reworded_terms = terms.with_aliases(variants).with_keywords(variants) if variants else terms
    return reworded_terms.with_aliases(reworded_change(name))


def _common_abbreviations(text: str) -> list[tuple[str, str]]:
    """The (short, long) pairs of COMMON_ABBREVIATIONS whose short form the text uses
    (it may not define it: 'CRP levels did not differ'). The short forms are word
    characters only, so a whole-word match is a whole run of them: a set lookup per run
    finds the same ones as `_COMMON_SHORT`, faster."""
    used = _COMMON_SHORTS.intersection(_WORD_RUN.findall(text))
    return [(short, long) for short, long in COMMON_ABBREVIATIONS if short in used]


# '(TOPAR8, the primary end point)': a short form followed by more words in the
# parenthesis, which scispacy's detector (one parenthesis, short form alone) passes by.
_SHORT_THEN_MORE = re.compile(r"\((?P<short>[A-Za-z][\w-]{1,9})[,;] ")


def _abbreviations_before_comma(doc: Doc, text: str) -> Iterable[tuple[str, str]]:
    """Their (short, long) pairs, the long form found as scispacy finds it (Schwartz and
    Hearst's characters-in-order match over the same window of preceding words)."""
    for match in _SHORT_THEN_MORE.finditer(text):
        short = doc.char_span(match.start("short"), match.end("short"))
        if (short is None or short.start == 0 or not short_form_filter(short)
                or short.text.islower()):
            continue
        length = len(short.text)
        window = min(length + 5, length * 2)
        opening = short.start - 1
        _, long_form = find_abbreviation(doc[max(opening - window, 0):opening], short)
        if long_form is not None:
            yield (short.text, text[long_form.start_char:long_form.end_char])


def _swap_word(text: str, old: str, new: str) -> str | None:
    """`text` with the whole word or phrase `old` put as `new`, or None when it holds no
    such word (a substring test first: a regex only for the texts that may hold it)."""
    if old not in text:
        return None
    word = _whole_word(old)
    return word.sub(new, text) if word.search(text) else None


@lru_cache(maxsize=4096)
def _whole_word(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])")


def _phrase_coverage(keywords: dict[str, float], phrase: dict[str, float]) -> float:
    """The weighted share of one of the entity's phrases a keyword set covers."""
    return sum(w for k, w in phrase.items() if k in keywords) / sum(phrase.values())


def _labels_of(terms: Terms, labels: list[tuple[str, dict[str, float]]]) -> list[str]:
    """The group labels ('group A') whose arm's words cover most of the entity's (the
    best fitting: not the 'group B' that differs by one word); else the one label whose
    arm the entity's words cover ('group A treated by endoscopy' for 'endoscopic
    debridement': a review names an arm more fully than a trial's label does), when
    only one does (not the parts of a combined arm)."""
    covering = [(short, _coverage(words, terms)) for short, words in labels]
    best = max((cover for _, cover in covering), default=0.0)
    found = [short for short, cover in covering if cover >= max(best, ABBREVIATION_COVERAGE)]
    if found:
        return list(dict.fromkeys(found))
    covered = {short for short, words in labels if words and max(
        (_phrase_coverage(phrase, words) for phrase in terms.keywords if phrase),
        default=0.0) >= ABBREVIATION_COVERAGE}
    return list(covered) if len(covered) == 1 else []


def _coverage(keywords: dict[str, float], terms: Terms) -> float:
    """How much of any of the entity's phrases a keyword set covers."""
    return max((_phrase_coverage(keywords, phrase) for phrase in terms.keywords if phrase),
               default=0.0)


def _shortened(short: str, long_keywords: dict[str, float],
               terms: Terms) -> list[dict[str, float]]:
    """The entity's keyword sets with the part a long form names put as its short form:
    'rate of postoperative allogeneic blood transfusion' meets 'the rate of postoperative
    ABTs' when the abstract defines 'allogenic blood transfusions (ABTs)'. The short form
    weighs what it stands for; every content word of the long form must be in the set,
    and something else too (else the long form names the entity itself)."""
    short_stem = stem(short)
    content = {k for k, w in long_keywords.items() if w >= 1.0}
    if not content or short_stem in long_keywords:
        return []
    sets = []
    for keywords in terms.keywords:
        if content <= keywords.keys() and any(
                w >= 1.0 and k not in long_keywords for k, w in keywords.items()):
            kept = {k: w for k, w in keywords.items() if k not in long_keywords}
            kept[short_stem] = sum(w for k, w in keywords.items() if k in long_keywords)
            sets.append(kept)
    return sets


def _names_the_entity(keywords: dict[str, float], terms: Terms) -> bool:
    """Whether a long form names the entity: it covers ABBREVIATION_COVERAGE of one of the
    entity's phrases, and is not a rival measure that qualifies the same head otherwise
    ('relapse-free survival' for 'overall survival': each has a word the other lacks)."""
    return any(_phrase_coverage(keywords, phrase) >= ABBREVIATION_COVERAGE and not (
        any(k not in keywords for k in phrase)
        and any(w >= 1.0 and k not in phrase for k, w in keywords.items()))
        for phrase in terms.keywords if phrase)


def _clusters(hits: list[tuple[int, float]],
              stems: Sequence[str]) -> list[list[tuple[int, float]]]:
    """Runs of keyword hits with at most MAX_GAP words between them; amounts do not count
    ('pain score during the 100 ml rectal balloon distention' is one run)."""
    groups: list[list[tuple[int, float]]] = []
    for hit in hits:
        if groups and _words_between(stems, groups[-1][-1][0], hit[0]) <= MAX_GAP:
            groups[-1].append(hit)
        else:
            groups.append([hit])
    return groups


def _words_between(stems: Sequence[str], before: int, after: int) -> int:
    """The words between two positions, amounts ('100', 'ml') not counted. Only a gap of
    MAX_GAP + 1 to 2 * MAX_GAP tokens is counted word by word: a narrower one passes as it
    is, a wider one is not joined whatever it holds (counting every gap cost ~2% of the
    throughput)."""
    gap = after - before - 1
    if gap <= MAX_GAP or gap > 2 * MAX_GAP:
        return gap
    return sum(1 for i in range(before + 1, after)
               if not (stems[i][:1].isdigit() or stems[i] in DOSE_UNITS))


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
        if taken.isdisjoint(span):
            taken.update(span)
            chosen.append(m)
    return sorted(chosen, key=lambda m: m.start)

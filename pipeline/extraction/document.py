"""An abstract parsed once for reading: `AbstractParser.parse` cleans and parses the text
and flattens the spaCy doc into plain lists (`ParsedAbstract`), because spaCy Token and
Span objects are costly to create and every later step asks about the same tokens many
times. Sentences are built lazily with their lexicon matches and statistics, only when
something in them is read.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy
from spacy.attrs import IDX, LENGTH, LOWER, SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from pipeline.extraction.caches import WordCache
from pipeline.extraction.lexicon import (
    ARM_NOUNS,
    FINDING_SECTIONS,
    FOLLOW_UP_SUBJECTS,
    NON_FINDING_SECTIONS,
    REFERRING_WORDS,
    SECTION_LABEL,
    Lexicon,
)
from pipeline.extraction.mentions import DocTokens, Terms, abbreviation_pairs, stem_positions
from pipeline.extraction.nlp import parse
from pipeline.extraction.sentence import Sentence
from pipeline.extraction.stats import find_statistics
from pipeline.extraction.text import MAX_TEXT_CHARS, clean_paragraphs, clean_text
from pipeline.extraction.timepoints import time_points
from pipeline.model import Abstract, Entity


@dataclass(slots=True)
class ParsedAbstract:
    """A parsed abstract, flattened once: spaCy Token objects are costly to create."""

    doc: Doc
    text: str  # doc.text, which spaCy rebuilds from the tokens on every access
    stems: list[str]
    words: list[str]
    token_chars: list[int]
    token_ends: list[int]
    bounds: dict[int, int]  # sentence start token -> end token
    starts: list[int]  # sentence start tokens, in order
    background: set[int]
    sections: dict[int, str]  # sentence start token -> the section label above it
    titled: bool  # the first sentence is the abstract's title
    sentences: dict[int, Sentence]  # read lazily, once
    abbreviations: list[tuple[str, str]]  # scispacy's (short, long) pairs, each once
    tokens: DocTokens  # token ids, for exact phrase lookups
    stem_positions: dict[str, list[int]]  # for fuzzy lookups
    lexicon: Lexicon  # matches phrases and patterns when a sentence is built
    max_read_tokens: int  # longer sentences are not read (ExtractorSettings)
    # each entity's terms with this abstract's abbreviations (locate.py), by the entity
    # and its aliases: the extractor asks for the arms' and the outcome's more than once
    entity_terms: dict[tuple[Entity, tuple[str, ...]], Terms] = field(default_factory=dict)

    def readable(self, start: int) -> bool:
        """A finding sentence: not under a background/methods label, and not a run-on
        token stream (text without sentence boundaries is not read)."""
        return (start not in self.background
                and self.bounds[start] - start <= self.max_read_tokens)

    def sentence_of(self, token: int) -> int:
        """The start token of the sentence holding `token`."""
        return self.starts[bisect_right(self.starts, token) - 1]

    def sentence_text(self, start: int) -> str:
        return self.text[self.token_chars[start]:self.token_ends[self.bounds[start] - 1]]

    def sentence(self, start: int) -> Sentence:
        """The sentence starting at `start`, with its lexicon matches and statistics (the
        lexicon runs here, only on sentences that mention something)."""
        if start in self.sentences:
            return self.sentences[start]
        end = self.bounds[start]
        text = self.sentence_text(start)
        span = self.doc[start:end]
        found = self.lexicon.phrases_in(span)
        for label, spans in self.lexicon.patterns_in(span, self.words).items():
            found[label] += spans
        sentence = Sentence(start, end, text, self.token_chars[start], self.words,
                            self.token_chars, self._not_short_forms(found["NULL"]),
                            found["COMPARE"], found["DEFINITION"],
                            find_statistics(text, self.short_forms), found["WITHIN"],
                            *self._judged_next(end), self._gone_later(end))
        self.sentences[start] = sentence
        return sentence

    @property
    def short_forms(self) -> frozenset[str]:
        """The short forms the abstract defines ('NS' for normal saline)."""
        return frozenset(short for short, _ in self.abbreviations)

    def _not_short_forms(self, nulls: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The null phrases but a one-word one the abstract defines as a short form:
        'NS' for normal saline is an arm, not 'not significant'."""
        return [(a, b) for a, b in nulls
                if b - a > 1 or self.doc[a].text not in self.short_forms]

    def _judged_next(self, end: int) -> tuple[tuple[int, int] | None, bool]:
        """What a next sentence that opens by referring back says of this one's finding:
        its null ('However, these differences were not statistically significant.'), or
        that it was significant ('This difference was statistically significant.')."""
        if end not in self.bounds:
            return None, False
        words, stop = self.words, self.bounds[end]
        first = end
        while first < stop and words[first] in ("however", ","):
            first += 1
        refers = self._refers_back(first, stop)
        if not refers and not self._of_the_arms_only(first, stop):
            return None, False
        null = self._null_near(end, first)
        if not refers:
            return null, False
        significant = null is None and any(
            words[i].startswith("significant") for i in range(first, min(stop, first +
                                                                         JUDGED_WINDOW)))
        return null, significant

    def _gone_later(self, end: int) -> frozenset[float]:
        """The time points of a next sentence that opens with them and refers back to
        this finding with a null ('At 6-month follow-up, the difference was no longer
        significant.'): the finding at those times. Empty when there is none."""
        if end not in self.bounds:
            return frozenset()
        words, stop = self.words, self.bounds[end]
        if words[end] not in TIME_LEADS:
            return frozenset()
        comma = next((i for i in range(end, min(stop, end + TIME_LEAD_REACH))
                      if words[i] == ","), None)
        if (comma is None or not self._refers_back(comma + 1, stop)
                or self._null_near(end, comma + 1) is None):
            return frozenset()
        return time_points(words[end:comma])

    def _refers_back(self, first: int, stop: int) -> bool:
        """Whether the words at `first` refer back to a finding ('these differences')."""
        words = self.words
        return (first + 1 < stop and words[first] in REFERRING_WORDS
                and words[first + 1] in FOLLOW_UP_SUBJECTS)

    def _null_near(self, end: int, first: int) -> tuple[int, int] | None:
        """The null of the sentence starting at `end` within JUDGED_WINDOW tokens of
        `first`, its words that refer back."""
        return next((span for span in self.sentence(end).nulls
                     if span[0] < first + JUDGED_WINDOW), None)

    def _of_the_arms_only(self, first: int, stop: int) -> bool:
        """'There was no statistical difference between the two groups (p=0.41).': a
        sentence whose only subject is the arms, named as such right after 'between'
        near its start, with nothing after them but statistics, judges the finding
        before it."""
        words = self.words
        between = next((i for i in range(first, min(stop, first + JUDGED_WINDOW))
                        if words[i] == "between"), None)
        if between is None or any(w.isalpha() and w not in ARMS_ONLY_WORDS
                                  for w in words[first:between]):
            return False  # 'Reintubation rates did not differ between groups': its own subject
        i = between + 1
        while i < stop and (words[i] in ARM_NOUNS or words[i] in ARM_PHRASE_WORDS):
            i += 1
        if i == between + 1 or words[i - 1] not in ARM_NOUNS:
            return False
        depth = 0
        for word in words[i:stop]:
            depth += (word == "(") - (word == ")")
            if depth <= 0 and word not in (")", ".", ",", ";"):
                return False
        return True

    def position(self, start: int) -> float:
        """Where the sentence starting at `start` sits in the abstract (0 first, 1 last)."""
        return (bisect_right(self.starts, start) - 1) / max(1, len(self.starts) - 1)


# 'These differences were not statistically significant': the null (or 'significant')
# within this many tokens of the referring words.
JUDGED_WINDOW = 8
# 'At 6-month follow-up, the difference ...': the words that open a time point, and the
# tokens from them in which its comma falls.
TIME_LEADS = frozenset({"at", "after", "by", "during", "over", "within"})
TIME_LEAD_REACH = 8
# An abstract in this many paragraphs or more is taken for a structured one (background,
# methods, results, conclusions) even when its labels were stripped.
STRUCTURED_PARAGRAPHS = 3
# A paragraph that says 'significant' or gives a percentage (or a p-value or an interval:
# find_statistics) reports results.
RESULT_MARKS = re.compile(r"signific|\d\s*%", re.IGNORECASE)
# The words a sentence whose only subject is the arms has before 'between' ('There was no
# statistically significant difference between the groups').
ARMS_ONLY_WORDS = frozenset({
    "there", "was", "were", "is", "are", "no", "not", "any", "a", "an", "the", "this",
    "these", "statistical", "statistically", "significant", "significantly", "difference",
    "differences", "found", "observed", "detected", "seen", "noted", "did", "does", "differ",
    "reach", "reached", "significance", "overall", "however"})
# Words that may stand with the arms' nouns after 'between' ('between the two study groups').
ARM_PHRASE_WORDS = frozenset({"the", "two", "both", "study"})


class AbstractParser:
    """Cleans an abstract's title and text, parses them with spaCy and flattens the doc."""

    def __init__(self, nlp: Language, lexicon: Lexicon, words: WordCache,
                 max_read_tokens: int,
                 entity_linker: Callable[[Doc], Doc] | None = None) -> None:
        """Args:
            nlp: the spaCy pipeline (tokenizer, sentences, abbreviations, maybe NER).
            lexicon: the phrase and pattern matchers sentences are read with.
            words: the cache of lower-case words and stems shared across abstracts.
            max_read_tokens: sentences longer than this (in tokens) are not read.
            entity_linker: scispacy's EntityLinker, run on docs with NER entities.
        """
        self.nlp = nlp
        self.lexicon = lexicon
        self.words = words
        self.max_read_tokens = max_read_tokens
        self.entity_linker = entity_linker

    def parse(self, abstract: Abstract) -> ParsedAbstract | None:
        """The parsed abstract, or None when its text has no letter at all."""
        title = clean_text(abstract.title)
        paragraphs = clean_paragraphs(abstract.text)
        body = " ".join(paragraphs)[:MAX_TEXT_CHARS]
        text = " ".join(t for t in (title, body) if t)
        offset = len(title) + 1 if title and body else 0
        if not any(ch.isalpha() for ch in text):
            return None
        doc = parse(self.nlp, text)
        if self.entity_linker is not None and doc.ents:
            doc = self.entity_linker(doc)
        # one array for all four: each to_array call walks the doc again
        lower, idx, length, sent_start = doc.to_array([LOWER, IDX, LENGTH, SENT_START]).T.copy()
        words, stems = self.words.words_and_stems(doc, lower.tolist())
        chars = idx.tolist()
        ends = (idx + length).tolist()
        # doc.sents without a Span per sentence: sentences start at token 0 and at every
        # token marked as a start (-1 in uint64 is not 1)
        starts = [0, *(numpy.flatnonzero(sent_start[1:] == 1) + 1).tolist()]
        bounds = dict(zip(starts, [*starts[1:], len(doc)], strict=True))
        parsed = ParsedAbstract(doc, text, stems, words, chars, ends, bounds, starts,
                                set(), {}, bool(abstract.title.strip()), {},
                                abbreviation_pairs(doc, text),
                                DocTokens(doc, lower), stem_positions(stems, words), self.lexicon,
                                self.max_read_tokens)
        parsed.background, parsed.sections = _sections(parsed, paragraphs, offset)
        return parsed


def _preamble_chars(paragraphs: list[str]) -> int:
    """How many characters of the joined paragraphs come before the first paragraph that
    states a result, in a structured abstract whose labels were stripped (MedEvidence's
    sources: background, methods, results and conclusions as paragraphs); 0 when the text
    has fewer than STRUCTURED_PARAGRAPHS paragraphs or none states a result."""
    if len(paragraphs) < STRUCTURED_PARAGRAPHS:
        return 0
    for index, paragraph in enumerate(paragraphs):
        if RESULT_MARKS.search(paragraph) or find_statistics(paragraph):
            return sum(len(p) + 1 for p in paragraphs[:index])
    return 0


def _sections(parsed: ParsedAbstract, paragraphs: list[str],
              offset: int) -> tuple[set[int], dict[int, str]]:
    """Start tokens of sentences under a background/methods label ('METHODS: ...') or, in
    an abstract with no label of its own, in its preamble (the paragraphs before the first
    result; they start at character `offset` of the text), and each sentence's section
    label ('' before the first)."""
    skipped: set[int] = set()
    sections: dict[int, str] = {}
    reading = True
    name = ""
    text = parsed.text
    for start in parsed.bounds:
        label = SECTION_LABEL.match(text, parsed.token_chars[start])
        if label:
            name = label.group(1)
            reading = any(w in name for w in FINDING_SECTIONS) or not any(
                w in name for w in NON_FINDING_SECTIONS)
        if not reading:
            skipped.add(start)
        sections[start] = name
    if not any(sections.values()):
        preamble = range(offset, offset + _preamble_chars(paragraphs))
        skipped.update(start for start in parsed.bounds
                       if parsed.token_chars[start] in preamble)
    return skipped, sections

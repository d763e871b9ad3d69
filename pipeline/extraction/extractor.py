"""The extractor the agent calls: an abstract and a query in, evidence rows out.

The core rows are intervention -> outcome; mediator rows (intervention -> mediator,
mediator -> outcome) give the graph its two-hop paths. Head and tail keep the ids the
caller resolved (so the rows join the query's nodes); entities the extractor discovers
itself are resolved here (MeSH UI when grounded, else the normalised name).
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy
from spacy.attrs import IDX, LENGTH, LOWER, SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from pipeline.extraction.calibration import ConfidenceModel, load_default_model
from pipeline.extraction.fallback import (
    FallbackClassifier,
    FallbackSettings,
    load_default_classifier,
)
from pipeline.extraction.lexicon import (
    ADVERSE_OUTCOME_WORDS,
    DECREASE_VERBS,
    FINDING_SECTIONS,
    GENERIC_OUTCOME_WORDS,
    INCREASE_VERBS,
    LESS_WORDS,
    MECHANISM_PHRASES,
    MORE_WORDS,
    NON_FINDING_SECTIONS,
)
from pipeline.extraction.mentions import (
    DocTokens,
    Mention,
    MentionFinder,
    Terms,
    abbreviation_pairs,
    doc_hits,
    stem,
    stem_positions,
)
from pipeline.extraction.mesh import MeshIndex
from pipeline.extraction.nlp import build_nlp, configured_model, has_entities, parse
from pipeline.extraction.picker import SentencePicker, SentenceSignals
from pipeline.extraction.resolve import EntityResolver
from pipeline.extraction.rules import Candidate, Lexicon, Reading, Sentence, read
from pipeline.extraction.stats import Significance, find_statistics
from pipeline.extraction.text import clean_text
from pipeline.model import (
    MAX_SENTENCE_CHARS,
    Abstract,
    Entity,
    Evidence,
    InvalidEvidence,
    Query,
    make_evidence,
)

FUZZY_THRESHOLD = 0.34  # outcomes are named loosely: a third of their content words
ARM_THRESHOLD = 0.34  # arms are matched on their distinguishing words only
_SECTION_LABEL = re.compile(r"([A-Z][A-Z /&]{2,40}):")
IMPLICIT_HEAD_FACTOR = 0.85  # the intervention is the study's, but this sentence omits it
UNSEEN_HEAD_FACTOR = 0.7  # ... and the abstract never names it in a form we recognise
MAX_READ_TOKENS = 250  # real finding sentences are far shorter
DISCOVERED_FACTOR = 0.9  # a mediator found by the extractor, not named by the caller
ENTITY_LOOKAHEAD = 4  # an NER entity this close after a cue is what the cue governs
ENTITY_LINK_THRESHOLD = 0.85  # scispacy EntityLinker's cosine for NER entities
MAX_MEDIATOR_TOKENS = 8
FALLBACK_CUE = "<classifier>"
WORD_CACHE = 200_000  # distinct lower-case words remembered with their stems
TERMS_CACHE = 10_000  # entities remembered with their terms
PHRASE_STOPPERS = frozenset({"in", "compared", "than", "among", "by", "at", "from", "with",
                             "during", "after", "vs", "versus", "and", "or", "but", "was",
                             "were", "is", "are", "when", "relative", "over", "for", "to",
                             "between", "which", "that", "as", "while", "whereas", "on"})
# Verbs (and their nouns) whose object is what changed: 'X raised M'. Comparatives
# ('higher') and predicates ('is high') say nothing about an object.
CHANGE_VERBS = (INCREASE_VERBS | DECREASE_VERBS) - {
    w for w in MORE_WORDS | LESS_WORDS if not w.endswith("ed")}
COPULAS = frozenset({"is", "was", "were", "are", "be", "been", "being", "remained"})
MECHANISM_NOUNS = frozenset({"inhibition", "suppression", "activation", "stimulation",
                             "modulation", "blockade", "induction", "enhancement", "release",
                             "production", "synthesis", "expression", "secretion"})
LEADING_SKIPS = frozenset({"the", "a", "an", "in", "of", "significantly", "significant",
                           "markedly", "substantially", "its", "their", "both", "serum",
                           "plasma", "also"})


class Extractor(Protocol):
    """What the agent calls for every retrieved abstract."""

    def extract(self, abstract: Abstract, query: Query,
                mediators: Sequence[Entity] = ()) -> list[Evidence]: ...


@dataclass(slots=True)
class _Parsed:
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

    def readable(self, start: int) -> bool:
        """A finding sentence: not under a background/methods label, and not a run-on
        token stream (text without sentence boundaries is not read)."""
        return start not in self.background and self.bounds[start] - start <= MAX_READ_TOKENS

    def sentence_of(self, token: int) -> int:
        """The start token of the sentence holding `token`."""
        return self.starts[bisect_right(self.starts, token) - 1]

    def sentence_text(self, start: int) -> str:
        return self.text[self.token_chars[start]:self.token_ends[self.bounds[start] - 1]]


class RuleExtractor:
    """The offline rule pipeline (spaCy + scispacy abbreviations + the project lexicon);
    a trained ConfidenceModel, when given, calibrates the confidence of each reading."""

    def __init__(self, nlp: Language | None = None, resolver: EntityResolver | None = None,
                 calibration: ConfidenceModel | None = None, name: str = "dacg-rules",
                 discover_mediators: bool = True, picker: SentencePicker | None = None,
                 fallback: FallbackClassifier | None = None,
                 fallback_settings: FallbackSettings | None = None) -> None:
        self.nlp = nlp or build_nlp()
        self.resolver = resolver or EntityResolver()
        self.calibration = calibration
        self.name = name if calibration is None else f"{name}+{calibration.name}"
        self.discover_mediators = discover_mediators
        self.picker = picker or SentencePicker()
        self.fallback = fallback
        self.fallback_settings = fallback_settings or FallbackSettings()
        self.lexicon = Lexicon(self.nlp)
        self.finder = MentionFinder(self.nlp)
        mesh = self.resolver.mesh
        self.entity_linker = (mesh.linker.entity_linker(ENTITY_LINK_THRESHOLD)
                              if has_entities(self.nlp) and mesh and mesh.linker else None)
        self._known_words: dict[int, str] = {}  # lower-case id -> word
        self._known_stems: dict[int, str] = {}  # lower-case id -> its stem
        self._entity_terms: dict[tuple[Entity, tuple[str, ...]], Terms] = {}

    def extract(self, abstract: Abstract, query: Query,
                mediators: Sequence[Entity] = ()) -> list[Evidence]:
        parsed = self._parse(abstract)
        if parsed is None:
            return []
        intervention, outcome, comparator = self._query_mentions(parsed, query)
        implicit = IMPLICIT_HEAD_FACTOR if intervention else UNSEEN_HEAD_FACTOR
        found = self._triples(parsed, abstract, query.intervention, query.outcome,
                              intervention, outcome, comparator, implicit)
        if not found and self.fallback is not None:
            found = self._fallback(self.fallback, parsed, abstract, query, intervention,
                                   outcome, comparator, implicit)
        for mediator in mediators:
            if mediator.id in (query.intervention.id, query.outcome.id):
                continue
            middle = self._mentions(parsed, self._terms(parsed, mediator))
            found += self._triples(parsed, abstract, query.intervention, mediator,
                                   intervention, middle, comparator, implicit)
            found += self._triples(parsed, abstract, mediator, query.outcome, middle,
                                   outcome, {}, 0.0)
        if not mediators and self.discover_mediators and intervention:
            found += self._discovered(parsed, abstract, query, intervention, outcome,
                                      comparator)
        return _one_finding_per_pair(found)

    def candidate_mediators(self, abstract: Abstract, query: Query) -> list[Entity]:
        """Entities that a mechanism sentence names as the intervention's route ('acts
        through M', 'mediated by M'), for the agent's two-hop expansion."""
        parsed = self._parse(abstract)
        if parsed is None:
            return []
        found: dict[str, Entity] = {}
        taken = {query.intervention.id, query.outcome.id}
        for start, end in parsed.bounds.items():
            for marker in MECHANISM_PHRASES:
                size = len(marker.split())
                for i in range(start, end - size):
                    if " ".join(parsed.words[i:i + size]) != marker:
                        continue
                    span = _entity_span(parsed, i + size, end)
                    entity = self._span_entity(parsed, *span) if span else None
                    if entity is not None and entity.id not in taken:
                        found.setdefault(entity.id, entity)
        return list(found.values())

    # parsing and mentions -------------------------------------------------------------

    def _parse(self, abstract: Abstract) -> _Parsed | None:
        text = " ".join(t for t in (clean_text(abstract.title), clean_text(abstract.text))
                        if t)
        if not any(ch.isalpha() for ch in text):
            return None
        doc = parse(self.nlp, text)
        if self.entity_linker is not None and doc.ents:
            doc = self.entity_linker(doc)
        lower = doc.to_array(LOWER)
        columns = doc.to_array([IDX, LENGTH, SENT_START]).astype(numpy.int64)
        words, stems = self._words(doc, lower.tolist())
        chars = columns[:, 0].tolist()
        ends = (columns[:, 0] + columns[:, 1]).tolist()
        # doc.sents without a Span per sentence: sentences start at token 0 and at every
        # token marked as a start
        starts = [0, *(numpy.flatnonzero(columns[1:, 2] == 1) + 1).tolist()]
        bounds = dict(zip(starts, [*starts[1:], len(doc)], strict=True))
        parsed = _Parsed(doc, text, stems, words, chars, ends, bounds, starts,
                         set(), {}, bool(abstract.title.strip()), {},
                         abbreviation_pairs(doc, text),
                         DocTokens(doc, lower), stem_positions(stems))
        parsed.background, parsed.sections = _sections(parsed)
        return parsed

    def _words(self, doc: Doc, ids: list[int]) -> tuple[list[str], list[str]]:
        """The doc's lower-case words and their stems, from their string ids. Known ids
        reuse their strings (the StringStore decodes a new str on every lookup)."""
        words, stems = self._known_words, self._known_stems
        if len(words) > WORD_CACHE:
            words.clear()
            stems.clear()
        strings = doc.vocab.strings
        for key in set(ids).difference(words):
            word = words[key] = strings[key]
            stems[key] = stem(word)
        return list(map(words.__getitem__, ids)), list(map(stems.__getitem__, ids))

    def _terms(self, parsed: _Parsed, entity: Entity) -> Terms:
        """The entity's terms (remembered: a run asks about the same entities in every
        abstract) with this abstract's abbreviations."""
        key = (entity, entity.aliases)
        terms = self._entity_terms.get(key)
        if terms is None:
            if len(self._entity_terms) > TERMS_CACHE:
                self._entity_terms.clear()
            terms = self._entity_terms[key] = Terms.of(entity, self.resolver.aliases(entity))
        return self.finder.expand_abbreviations(parsed.abbreviations, terms)

    def _query_mentions(self, parsed: _Parsed, query: Query) -> tuple[
            dict[int, list[Mention]], dict[int, list[Mention]], dict[int, list[Mention]]]:
        """Mentions of intervention, outcome and comparator; the arms are matched fuzzily
        only on the words that tell them apart."""
        arm = self._terms(parsed, query.intervention)
        outcome = self._mentions(parsed, self._terms(parsed, query.outcome))
        if query.comparator is None:
            return self._mentions(parsed, arm, ARM_THRESHOLD), outcome, {}
        other = self._terms(parsed, query.comparator)
        shared = arm.stems & other.stems
        return (self._mentions(parsed, arm.without(shared), ARM_THRESHOLD), outcome,
                self._mentions(parsed, other.without(shared), ARM_THRESHOLD))

    def _mentions(self, parsed: _Parsed, terms: Terms,
                  threshold: float = FUZZY_THRESHOLD) -> dict[int, list[Mention]]:
        """Mentions of one entity per sentence start token (exact beats fuzzy)."""
        exact = self.finder.exact(parsed.tokens, terms)
        hits = doc_hits(parsed.stem_positions, terms)
        found: dict[int, list[Mention]] = {}
        for mention in exact:
            found.setdefault(parsed.sentence_of(mention.start), []).append(mention)
        keyword_sentences = {parsed.sentence_of(i) for _, positions, _ in hits
                             for i in positions}
        for start in keyword_sentences.difference(found):
            inside = self.finder.fuzzy(start, parsed.bounds[start], parsed.stems, hits,
                                       threshold)
            if inside:
                found[start] = inside
        return {start: found[start] for start in sorted(found)}  # in reading order

    def _sentence(self, parsed: _Parsed, start: int) -> Sentence:
        """The sentence starting at `start`, with its lexicon matches and statistics (the
        lexicon runs here, only on sentences that mention something)."""
        if start in parsed.sentences:
            return parsed.sentences[start]
        end = parsed.bounds[start]
        text = parsed.sentence_text(start)
        span = parsed.doc[start:end]
        found = self.lexicon.phrases_in(span)
        for label, spans in self.lexicon.patterns_in(span, parsed.words).items():
            found[label] += spans
        sentence = Sentence(start, end, text, parsed.token_chars[start], parsed.words,
                            parsed.token_chars, found["NULL"], found["COMPARE"],
                            found["DEFINITION"], find_statistics(text), found["WITHIN"])
        parsed.sentences[start] = sentence
        return sentence

    # triples ---------------------------------------------------------------------------

    def _triples(self, parsed: _Parsed, abstract: Abstract, head: Entity, tail: Entity,
                 heads: dict[int, list[Mention]], tails: dict[int, list[Mention]],
                 comparators: dict[int, list[Mention]], implicit: float) -> list[Evidence]:
        """Rows head -> tail; a sentence without the head counts with factor `implicit`
        (0: the head must be named)."""
        rows: list[Evidence] = []
        candidates = list(self._candidates(parsed, tail, heads, tails, comparators,
                                           implicit > 0))
        weights = self.picker.pooling_weights([self._pick_score(parsed, c)
                                               for c in candidates])
        for candidate, weight in zip(candidates, weights, strict=True):
            reading = candidate.reading
            if self.calibration is not None:
                reading = self.calibration.refine(candidate)
            if reading is None:
                continue
            confidence = reading.confidence * (1.0 if candidate.heads else implicit)
            confidence *= weight
            confidence *= candidate.tail.score ** 2
            row = self._evidence(head, tail, reading, confidence, abstract,
                                 candidate.sentence.text)
            if row is not None:
                rows.append(row)
        return rows

    def _candidates(self, parsed: _Parsed, tail: Entity, heads: dict[int, list[Mention]],
                    tails: dict[int, list[Mention]], comparators: dict[int, list[Mention]],
                    implicit_head: bool) -> Iterator[Candidate]:
        """Every finding sentence that mentions the tail (and the head, or the head is
        implicit), with the rules' reading of it."""
        adverse = _adverse(tail)
        for start, tail_mentions in tails.items():
            head_mentions = heads.get(start, [])
            if not parsed.readable(start) or not (head_mentions or implicit_head):
                continue
            sentence = self._sentence(parsed, start)
            tail_mention = max(tail_mentions, key=lambda m: m.score)
            arms = comparators.get(start, [])
            reading = read(sentence, tail_mention, head_mentions, arms, adverse)
            yield Candidate(sentence, tail_mention, tuple(head_mentions), tuple(arms),
                            reading, adverse)

    def _fallback(self, classifier: FallbackClassifier, parsed: _Parsed, abstract: Abstract,
                  query: Query,
                  heads: dict[int, list[Mention]], tails: dict[int, list[Mention]],
                  comparators: dict[int, list[Mention]], implicit: float) -> list[Evidence]:
        """The intervention -> outcome row when no sentence gave the rules a reading: the
        classifier's reading of the picker's best sentence about the outcome (matched
        loosely if need be), trusted less than a rule reading."""
        settings = self.fallback_settings
        candidates = list(self._candidates(parsed, query.outcome, heads, tails,
                                           comparators, True))
        if not candidates:
            loose = self._mentions(parsed, self._terms(parsed, query.outcome),
                                   settings.min_outcome_score)
            candidates = list(self._candidates(parsed, query.outcome, heads, loose,
                                               comparators, True))
        candidates = [c for c in candidates
                      if not c.sentence.is_aim and self.picker.states_result(c.sentence)]
        if not candidates:
            return []
        best = max(candidates, key=lambda c: self._pick_score(parsed, c))
        polarity, probability = classifier.classify(best.sentence.text)
        confidence = probability * settings.confidence_factor * best.tail.score ** 2
        confidence *= 1.0 if best.heads else implicit
        reading = Reading(polarity, confidence, Significance.NOT_REPORTED, FALLBACK_CUE)
        row = self._evidence(query.intervention, query.outcome, reading, confidence,
                             abstract, best.sentence.text)
        return [row] if row is not None else []

    def _pick_score(self, parsed: _Parsed, candidate: Candidate) -> float:
        start = candidate.sentence.start
        position = bisect_right(parsed.starts, start) - 1
        return self.picker.score(SentenceSignals(
            candidate.sentence, candidate.tail.score, bool(candidate.heads),
            bool(candidate.comparators), parsed.sections.get(start, ""),
            position / max(1, len(parsed.starts) - 1), start == 0 and parsed.titled))

    def candidates(self, abstract: Abstract, query: Query) -> list[Candidate]:
        """The intervention -> outcome candidates of an abstract (for training the
        confidence model); the head may always be implicit."""
        parsed = self._parse(abstract)
        if parsed is None:
            return []
        intervention, outcome, comparator = self._query_mentions(parsed, query)
        return list(self._candidates(parsed, query.outcome, intervention, outcome,
                                     comparator, True))

    def _discovered(self, parsed: _Parsed, abstract: Abstract, query: Query,
                    intervention: dict[int, list[Mention]], outcome: dict[int, list[Mention]],
                    comparator: dict[int, list[Mention]]) -> list[Evidence]:
        """intervention -> M rows for a result sentence whose cue governs something other
        than the outcome ('X also raised M')."""
        rows: list[Evidence] = []
        for start, head_mentions in intervention.items():
            if start in outcome or not parsed.readable(start):
                continue
            sentence = self._sentence(parsed, start)
            if sentence.is_aim:
                continue
            head_end = max(m.end for m in head_mentions)
            for i in range(head_end, sentence.end):
                if parsed.words[i] not in CHANGE_VERBS or parsed.words[i - 1] in COPULAS:
                    continue
                phrase = _entity_span(parsed, i + 1, sentence.end)
                mediator = self._span_entity(parsed, *phrase) if phrase else None
                if phrase is None or mediator is None or mediator.id in (
                        query.intervention.id, query.outcome.id):
                    break
                tail = Mention(phrase[0], phrase[1], 0.9)
                arms = tuple(comparator.get(start, []))
                candidate = Candidate(sentence, tail, tuple(head_mentions), arms,
                                      read(sentence, tail, head_mentions, arms))
                reading = (self.calibration.refine(candidate) if self.calibration
                           else candidate.reading)
                if reading is not None:
                    row = self._evidence(query.intervention, mediator, reading,
                                         reading.confidence * DISCOVERED_FACTOR, abstract,
                                         sentence.text)
                    if row is not None:
                        rows.append(row)
                break
        return rows

    def _span_entity(self, parsed: _Parsed, start: int, end: int) -> Entity | None:
        """The entity a discovered span names: the MeSH descriptor scispacy's linker gave
        it (pipelines with an NER), else its name resolved like any other."""
        name = _phrase_name(parsed, start, end)
        mesh = self.resolver.mesh
        for ent in parsed.doc.ents if self.entity_linker is not None else ():
            if (ent.start, ent.end) == (start, end) and ent._.kb_ents and mesh is not None:
                descriptor = mesh.descriptor(ent._.kb_ents[0][0])
                if descriptor is not None:
                    return Entity(descriptor.ui, name, grounded=True)
        return self._entity(name)

    def _entity(self, name: str) -> Entity | None:
        words = name.split()
        if not words or all(w.lower() in GENERIC_OUTCOME_WORDS for w in words):
            return None
        if not any(len(w) > 2 and w[0].isalpha() for w in words):
            return None
        try:
            return self.resolver.resolve(name)
        except InvalidEvidence:
            return None

    def _evidence(self, head: Entity, tail: Entity, reading: Reading, confidence: float,
                  abstract: Abstract, sentence: str) -> Evidence | None:
        if head.id == tail.id:
            return None
        try:
            row = make_evidence(head.name, "tail" if head.name == tail.name else tail.name,
                                reading.polarity, min(0.95, max(0.0, confidence)),
                                abstract.pmid, sentence[:MAX_SENTENCE_CHARS], self.name,
                                abstract.year if isinstance(abstract.year, int) else None)
        except InvalidEvidence:
            return None
        return dataclasses.replace(row, head=head, tail=tail)


def _adverse(entity: Entity) -> bool:
    """Whether less of the outcome is better ('time to relapse' is not: longer is)."""
    words = entity.name.lower().replace("-", " ").split()
    if words[:2] in (["time", "to"], ["duration", "of"]) or "free" in words:
        return False
    return any(w in ADVERSE_OUTCOME_WORDS for w in words)


def _sections(parsed: _Parsed) -> tuple[set[int], dict[int, str]]:
    """Start tokens of sentences under a background/methods label ('METHODS: ...'), and
    each sentence's section label ('' before the first)."""
    skipped: set[int] = set()
    sections: dict[int, str] = {}
    reading = True
    name = ""
    text = parsed.text
    for start in parsed.bounds:
        label = _SECTION_LABEL.match(text, parsed.token_chars[start])
        if label:
            name = label.group(1)
            reading = any(w in name for w in FINDING_SECTIONS) or not any(
                w in name for w in NON_FINDING_SECTIONS)
        if not reading:
            skipped.add(start)
        sections[start] = name
    return skipped, sections


def _object_phrase(parsed: _Parsed, start: int, limit: int) -> tuple[int, int] | None:
    """The tokens after a cue up to a preposition or punctuation, without leading
    determiners or a measure or mechanism word + 'of': 'raised the levels of endothelial
    glycocalyx integrity (SMD ...' -> 'endothelial glycocalyx integrity', 'through
    inhibition of rhinovirus replication' -> 'rhinovirus replication'. Hyphenated words
    stay whole."""
    words, chars, ends = parsed.words, parsed.token_chars, parsed.token_ends
    i = start
    while i < limit and words[i] in LEADING_SKIPS:
        i += 1
    while i + 1 < limit and words[i + 1] == "of" and (
            words[i] in GENERIC_OUTCOME_WORDS or words[i] in MECHANISM_NOUNS):
        i += 2
    end, count = i, 0
    while end < limit and count < MAX_MEDIATOR_TOKENS:
        word = words[end]
        joined = end > i and chars[end] == ends[end - 1] and word in ("-", "/")
        if not joined and (word in PHRASE_STOPPERS or not any(ch.isalnum() for ch in word)):
            break
        if joined and not (end + 1 < limit and chars[end + 1] == ends[end]):
            break
        end += 1
        count += 0 if joined else 1
    return (i, end) if end > i else None


def _entity_span(parsed: _Parsed, start: int, limit: int) -> tuple[int, int] | None:
    """What a cue governs: the NER's entity right after it when the pipeline has one
    (a trained model), else the rule-based object phrase."""
    for ent in parsed.doc.ents:
        if start <= ent.start < start + ENTITY_LOOKAHEAD and ent.end <= limit:
            return ent.start, ent.end
    return _object_phrase(parsed, start, limit)


def _phrase_name(parsed: _Parsed, start: int, end: int) -> str:
    """The phrase as written, or the long form when it is an abbreviation the abstract
    defines ('AAD' -> 'antibiotic-associated diarrhoea')."""
    text = parsed.text[parsed.token_chars[start]:parsed.token_ends[end - 1]]
    for short, long_form in parsed.abbreviations:
        if short == text:
            return long_form
    return text


def _one_finding_per_pair(rows: list[Evidence]) -> list[Evidence]:
    """One row per (head, tail) per abstract: one study reports one finding per pair, so
    sentences that disagree (a within-group change, a hedged conclusion) are pooled; the
    polarity with the largest summed confidence wins and keeps its best sentence, its
    confidence scaled by the share of support it had."""
    pairs: dict[tuple[str, str], list[Evidence]] = {}
    for row in rows:
        pairs.setdefault((row.head.id, row.tail.id), []).append(row)
    out = []
    for group in pairs.values():
        totals: dict[int, float] = {}
        for row in group:
            totals[int(row.polarity)] = totals.get(int(row.polarity), 0.0) + row.confidence
        winner = max(totals, key=lambda p: (totals[p], p == 0))
        best = max((r for r in group if int(r.polarity) == winner), key=lambda r: r.confidence)
        share = totals[winner] / sum(totals.values())
        confidence = round(best.confidence * (0.5 + 0.5 * share), 3)
        out.append(dataclasses.replace(best, confidence=confidence))
    return out


def default_extractor(mesh: MeshIndex | None = None) -> Extractor:
    """The offline rule pipeline, with the shipped confidence model and fallback classifier
    when present. The spaCy
    pipeline is the blank one unless $DACG_SPACY_MODEL names an installed model."""
    return RuleExtractor(nlp=build_nlp(configured_model()), resolver=EntityResolver(mesh),
                         calibration=load_default_model(), fallback=load_default_classifier())


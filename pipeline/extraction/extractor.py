"""The extractor the agent calls: an abstract and a query in, evidence rows out.

The core rows are intervention -> outcome; mediator rows (intervention -> mediator,
mediator -> outcome) give the graph its two-hop paths. Head and tail keep the ids the
caller resolved (so the rows join the query's nodes); entities the extractor discovers
itself are resolved in `linking.py` (MeSH UI when grounded, else the normalised name).

`RuleExtractor` wires the steps together and turns readings into rows; each step has its
own module: `document.py` (parsing and flattening an abstract), `locate.py` (where the
entities are mentioned), `rules.py` (reading a sentence, with the words of `lexicon.py`
and the helpers it names), `picker.py` (which sentence carries the result), `mediators.py`
(discovering mediators), `opposites.py` (an outcome's complement, when no sentence names
the outcome in full), `fallback.py` (the classifier when no rule reads),
`every_outcome.py` (a null said of every outcome, when no sentence names the outcome),
`rows.py` (making and pooling rows). Its tuning values are one `ExtractorSettings`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Protocol

from spacy.language import Language

from pipeline.extraction.arms import compared_with_another, introduced_first
from pipeline.extraction.caches import TermsCache, WordCache
from pipeline.extraction.calibration import ConfidenceModel, load_default_model
from pipeline.extraction.clauses import clause
from pipeline.extraction.document import AbstractParser, ParsedAbstract
from pipeline.extraction.every_outcome import (
    TRIGGERS,
    asks_harm,
    null_on_every_outcome,
    superior_on_every_outcome,
)
from pipeline.extraction.fallback import (
    FallbackClassifier,
    FallbackSettings,
    load_default_classifier,
)
from pipeline.extraction.lexicon import (
    ADVERSE_OUTCOME_WORDS,
    ARM_NOUNS,
    GENERIC_OUTCOME_WORDS,
    GOOD_OUTCOME_WORDS,
    REDUCTION_OUTCOME_WORDS,
    TIME_OUTCOME_WORDS,
    Lexicon,
)
from pipeline.extraction.locate import MentionLocator, Mentions
from pipeline.extraction.mediators import discover
from pipeline.extraction.mentions import (
    WHOLE_FUZZY_SCORE,
    Mention,
    MentionFinder,
    bracketed_short_forms,
    stem,
)
from pipeline.extraction.mesh import MeshIndex
from pipeline.extraction.naming import SpanNamer, ner_linker
from pipeline.extraction.nlp import build_nlp, configured_model
from pipeline.extraction.opposites import opposite_outcome
from pipeline.extraction.picker import SentencePicker, SentenceSignals
from pipeline.extraction.resolve import EntityResolver
from pipeline.extraction.rows import evidence_row, one_finding_per_pair
from pipeline.extraction.rules import Candidate, Reading, read
from pipeline.extraction.settings import ExtractorSettings
from pipeline.extraction.stats import Significance
from pipeline.extraction.study import opens_as_control
from pipeline.extraction.timepoints import shares_a_time, time_points
from pipeline.model import Abstract, Entity, Evidence, Polarity, Query

ARM_NOUN_STEMS = frozenset(stem(w) for w in ARM_NOUNS)
GOOD_OUTCOME_STEMS = frozenset(stem(w) for w in GOOD_OUTCOME_WORDS)
FALLBACK_CUE = "<classifier>"  # the cue a fallback reading reports
EVERY_OUTCOME_CUE = "<every outcome>"  # the cue of a null said of every outcome


class Extractor(Protocol):
    """What the agent calls for every retrieved abstract."""

    def extract(self, abstract: Abstract, query: Query,
                mediators: Sequence[Entity] = ()) -> list[Evidence]: ...


class RuleExtractor:
    """The offline rule pipeline (spaCy + scispacy abbreviations + the project lexicon);
    a trained ConfidenceModel, when given, calibrates the confidence of each reading."""

    def __init__(self, nlp: Language | None = None, resolver: EntityResolver | None = None,
                 calibration: ConfidenceModel | None = None, name: str = "dacg-rules",
                 discover_mediators: bool = True, picker: SentencePicker | None = None,
                 fallback: FallbackClassifier | None = None,
                 fallback_settings: FallbackSettings | None = None,
                 settings: ExtractorSettings | None = None) -> None:
        """Args:
            nlp: the spaCy pipeline; default the blank one of `build_nlp()`.
            resolver: grounds entity names (MeSH when it has an index); default none.
            calibration: the trained confidence model that refines each rule reading;
                None keeps the rules' own confidence.
            name: the extractor name rows carry (the calibration's name is appended).
            discover_mediators: without caller mediators, look for intervention -> M rows.
            picker: scores which sentence carries the result; default weights.
            fallback: the classifier that reads the best sentence when no rule reads one;
                None gives no row then.
            fallback_settings: how loosely the fallback matches and how much it is trusted.
            settings: thresholds, confidence factors and cache sizes; default
                `ExtractorSettings()`, the values the shipped models were measured with.
        """
        self.nlp = nlp or build_nlp()
        self.resolver = resolver or EntityResolver()
        self.calibration = calibration
        self.name = name if calibration is None else f"{name}+{calibration.name}"
        self.discover_mediators = discover_mediators
        self.picker = picker or SentencePicker()
        self.fallback = fallback
        self.fallback_settings = fallback_settings or FallbackSettings()
        self.settings = settings = settings or ExtractorSettings()
        self.lexicon = Lexicon(self.nlp)
        entity_linker = ner_linker(self.nlp, self.resolver, settings.entity_link_threshold)
        self.parser = AbstractParser(self.nlp, self.lexicon, WordCache(settings.word_cache),
                                     settings.max_read_tokens, entity_linker)
        self.locator = MentionLocator(MentionFinder(self.nlp),
                                      TermsCache(self.resolver, settings.terms_cache),
                                      settings.fuzzy_threshold, settings.arm_threshold)
        self.namer = SpanNamer(self.resolver, linked=entity_linker is not None)

    def extract(self, abstract: Abstract, query: Query,
                mediators: Sequence[Entity] = ()) -> list[Evidence]:
        if query.comparator is not None and _asks_control_against_treatment(
                query.intervention, query.comparator):
            # abstracts say what the treatment did against the control ('the treatment
            # group', 'compared to the control'), so the rules read that and the rows are
            # turned round: the control against the treatment is the opposite
            turned = Query(query.comparator, query.outcome, query.intervention)
            return [_turned_round(row, query.comparator, query.intervention)
                    for row in self._extract(abstract, turned, mediators)]
        return self._extract(abstract, query, mediators)

    def _extract(self, abstract: Abstract, query: Query,
                 mediators: Sequence[Entity]) -> list[Evidence]:
        parsed = self.parser.parse(abstract)
        if parsed is None:
            return []
        settings = self.settings
        intervention, outcome, comparator = self.locator.query_mentions(parsed, query)
        implicit = (settings.implicit_head_factor if intervention
                    else settings.unseen_head_factor)
        arm_stems = self._arm_stems(parsed, query, comparator)
        found = self._triples(parsed, abstract, query.intervention, query.outcome,
                              intervention, outcome, comparator, implicit, arm_stems)
        if not found or not _named_whole(outcome):
            # a complement named in full reads better than the outcome's stray words
            # ('mycological cure' for 'mycological treatment failure')
            found = self._opposite(parsed, abstract, query, intervention, comparator,
                                   implicit, arm_stems, _best_score(outcome) if found
                                   else 0.0) or found
        if not found and self.fallback is not None:
            found = self._fallback(self.fallback, parsed, abstract, query, intervention,
                                   outcome, comparator, implicit, arm_stems)
        if not found:
            found = self._every_outcome(parsed, abstract, query, intervention, comparator,
                                        implicit)
        for mediator in mediators:
            if mediator.id in (query.intervention.id, query.outcome.id):
                continue
            middle = self.locator.mentions(parsed, self.locator.terms(parsed, mediator))
            found += self._triples(parsed, abstract, query.intervention, mediator,
                                   intervention, middle, comparator, implicit, arm_stems)
            found += self._triples(parsed, abstract, mediator, query.outcome, middle,
                                   outcome, {}, 0.0)
        if not mediators and self.discover_mediators and intervention:
            found += self._discovered(parsed, abstract, query, intervention, outcome,
                                      comparator)
        return one_finding_per_pair(found)

    def candidates(self, abstract: Abstract, query: Query) -> list[Candidate]:
        """The intervention -> outcome candidates of an abstract (for training the
        confidence model); the head may always be implicit."""
        parsed = self.parser.parse(abstract)
        if parsed is None:
            return []
        intervention, outcome, comparator = self.locator.query_mentions(parsed, query)
        return list(self._candidates(parsed, query.outcome, intervention, outcome,
                                     comparator, True,
                                     self._arm_stems(parsed, query, comparator)))

    def _arm_stems(self, parsed: ParsedAbstract, query: Query,
                     comparators: Mentions) -> frozenset[str] | None:
        """The stems of both arms' names, for telling a third arm from them, when the
        abstract names the comparator; None (no check) when it does not, as the
        comparator may then go by other words throughout."""
        if query.comparator is None or not comparators:
            return None
        stems = (self.locator.terms(parsed, query.intervention).stems
                 | self.locator.terms(parsed, query.comparator).stems)
        # an abbreviation standing for an arm or a group ('CG': control group) is one
        stems |= {stem(short) for short, long in parsed.abbreviations
                  if {stem(w) for w in long.lower().split()} & (stems | ARM_NOUN_STEMS)}
        return frozenset(stems)

    # triples ---------------------------------------------------------------------------

    def _triples(self, parsed: ParsedAbstract, abstract: Abstract, head: Entity,
                 tail: Entity, heads: Mentions, tails: Mentions, comparators: Mentions,
                 implicit: float, arm_stems: frozenset[str] | None = None) -> list[Evidence]:
        """Rows head -> tail; a sentence without the head counts with factor `implicit`
        (0: the head must be named)."""
        rows: list[Evidence] = []
        when = _time_points(tail)
        candidates = _at_the_time_asked(list(self._candidates(
            parsed, tail, heads, tails, comparators, implicit > 0, arm_stems)), when)
        weights = self.picker.pooling_weights([self._pick_score(parsed, c, when)
                                               for c in candidates])
        for candidate, weight in zip(candidates, weights, strict=True):
            reading = self._refined(candidate)
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

    def _candidates(self, parsed: ParsedAbstract, tail: Entity, heads: Mentions,
                    tails: Mentions, comparators: Mentions, implicit_head: bool,
                    arm_stems: frozenset[str] | None = None) -> Iterator[Candidate]:
        """Every finding sentence that mentions the tail (and the head, or the head is
        implicit), with the rules' reading of it; none of a clause that compares with a
        third arm (`arm_stems`: the stems of both arms' names, see _arm_stems)."""
        adverse = _adverse(tail)
        timed = _timed(tail)
        reduction = _reduction(tail)
        good_of_adverse = _good_of_adverse(tail)
        event = _free_of_event(tail)
        measure_forms = _measure_short_forms(tail) if good_of_adverse else frozenset()
        when = _time_points(tail)
        order = introduced_first(heads, comparators)
        halves = _halves_of_composites(parsed, tail, tails)
        for start, tail_mentions in tails.items():
            head_mentions = heads.get(start, [])
            if not parsed.readable(start) or start in halves or not (
                    head_mentions or implicit_head):
                continue
            sentence = parsed.sentence(start)
            tail_mention = max(tail_mentions, key=lambda m: m.score)
            arms = comparators.get(start, [])
            if arm_stems is not None and compared_with_another(
                    sentence, *clause(sentence, tail_mention), head_mentions, arms, arm_stems):
                continue
            # 'pain relief' matched as 'pain': less pain is more relief
            measure = good_of_adverse and _names_the_measure(parsed, tail_mention,
                                                             measure_forms)
            # 'the risk of disease progression or death was lower' for progression-free
            # survival: less of the event is more of the survival free of it
            measure = measure or bool(event) and _names_only_the_event(
                parsed.words, tail_mention, event)
            # 'increased the time to the first exacerbation' for the exacerbations' rate:
            # the time read as a time, its way turned round for the event
            to_event = not timed and _timed_mention(parsed.words, tail_mention)
            reading = read(sentence, tail_mention, head_mentions, arms, adverse or measure,
                           timed or to_event, reduction or measure, when, order)
            if to_event and reading is not None:
                reading = dataclasses.replace(reading, polarity=-reading.polarity)
            yield Candidate(sentence, tail_mention, tuple(head_mentions), tuple(arms),
                            reading, adverse)

    def _opposite(self, parsed: ParsedAbstract, abstract: Abstract, query: Query,
                  heads: Mentions, comparators: Mentions, implicit: float,
                  arm_stems: frozenset[str] | None, above: float = 0.0
                  ) -> list[Evidence]:
        """The rows of the outcome's complement (opposites.py: 'mortality' for
        'survival'), turned the other way, from the complement's mentions that match
        more of its words than the outcome's best mention matches of the outcome's
        (`above`): 'mycological cure' for 'mycological treatment failure' named only as
        'mycological', not 'Complete' for 'complete failure rate' where 'complete cure'
        is named."""
        opposite = opposite_outcome(query.outcome)
        if opposite is None:
            return []
        tails = self.locator.mentions(parsed, self.locator.terms(parsed, opposite))
        tails = {start: better for start, found in tails.items()
                 if (better := [m for m in found if m.score > above])}
        # 'median time to death was 18.2 months with A' is read for death already turned
        # round from the time (_candidates), so it turns round again with the rest
        return [dataclasses.replace(row, tail=query.outcome,
                                    polarity=Polarity(-int(row.polarity)))
                for row in self._triples(parsed, abstract, query.intervention, opposite,
                                         heads, tails, comparators, implicit, arm_stems)]

    def _fallback(self, classifier: FallbackClassifier, parsed: ParsedAbstract,
                  abstract: Abstract, query: Query, heads: Mentions, tails: Mentions,
                  comparators: Mentions, implicit: float,
                  arm_stems: frozenset[str] | None) -> list[Evidence]:
        """The intervention -> outcome row when no sentence gave the rules a reading: the
        picker's best sentence about the outcome (matched loosely if need be), read by the
        rules when they can (the outcome matched only loosely), else by the classifier;
        trusted less than a rule reading of a named outcome."""
        settings = self.fallback_settings
        candidates = self._result_candidates(parsed, query, heads, tails, comparators, arm_stems)
        if not candidates:
            loose = self.locator.mentions(parsed, self.locator.terms(parsed, query.outcome),
                                          settings.min_outcome_score)
            candidates = self._result_candidates(parsed, query, heads, loose, comparators,
                                                 arm_stems)
        if not candidates:
            return []
        when = _time_points(query.outcome)
        best = max(candidates, key=lambda c: self._pick_score(parsed, c, when))
        reading = self._refined(best)
        if reading is not None:
            # a loosely matched outcome the rules can read: the rules read direction
            # better than the classifier does (docs/extraction.md)
            polarity, probability = reading.polarity, reading.confidence
        else:
            polarity, probability = classifier.classify(best.sentence.text,
                                                        best.sentence.says_significant)
        confidence = probability * settings.confidence_factor * best.tail.score ** 2
        confidence *= 1.0 if best.heads else implicit
        reading = Reading(polarity, confidence, Significance.NOT_REPORTED, FALLBACK_CUE)
        row = self._evidence(query.intervention, query.outcome, reading, confidence,
                             abstract, best.sentence.text)
        return [row] if row is not None else []

    def _every_outcome(self, parsed: ParsedAbstract, abstract: Abstract, query: Query,
                       heads: Mentions, comparators: Mentions,
                       implicit: float) -> list[Evidence]:
        """The row of a sentence that says no outcome differed, or else that the
        treatment won on every measure (every_outcome.py), when no sentence about the
        outcome gave a row: one naming the intervention first, else the first; trusted
        less than any reading of a named outcome."""
        harm = asks_harm(_name_words(query.outcome))
        starts = [start for start in parsed.starts
                  if parsed.readable(start) and not (start == 0 and parsed.titled)
                  and not TRIGGERS.isdisjoint(parsed.words[start:parsed.bounds[start]])]
        found = {start: 0 for start in starts
                 if null_on_every_outcome(parsed.sentence(start), harm)}
        # else a win on every measure: more of a good, less of a harm (an outcome of
        # neither kind has no side to win on)
        good = (0 if harm else 1 if not GOOD_OUTCOME_WORDS.isdisjoint(_name_words(query.outcome))
                else -1 if _adverse(query.outcome) else 0)
        for start in starts if good and not found else ():
            side = superior_on_every_outcome(parsed.sentence(start), heads.get(start, ()),
                                             comparators.get(start, ()))
            if side:
                found[start] = side * good
        if not found:
            return []
        best = next((start for start in found if start in heads), next(iter(found)))
        confidence = self.settings.every_outcome_confidence * (
            1.0 if best in heads else implicit)
        reading = Reading(found[best], confidence, Significance.NOT_REPORTED,
                          EVERY_OUTCOME_CUE)
        row = self._evidence(query.intervention, query.outcome, reading, confidence,
                             abstract, parsed.sentence(best).text)
        return [row] if row is not None else []

    def _result_candidates(self, parsed: ParsedAbstract, query: Query, heads: Mentions,
                           tails: Mentions, comparators: Mentions,
                           arm_stems: frozenset[str] | None) -> list[Candidate]:
        """Sentences about the outcome that report a result: not aims, not comparisons
        of the arms at baseline."""
        return [c for c in self._candidates(parsed, query.outcome, heads, tails, comparators,
                                            True, arm_stems)
                if not c.sentence.is_aim and self.picker.states_result(c.sentence)
                and not c.sentence.at_baseline]

    def _refined(self, candidate: Candidate) -> Reading | None:
        """The rules' reading of a candidate, its confidence set by the confidence model
        when there is one."""
        if self.calibration is None:
            return candidate.reading
        return self.calibration.refine(candidate)

    def _pick_score(self, parsed: ParsedAbstract, candidate: Candidate,
                    when: frozenset[float] = frozenset()) -> float:
        """The picker's score of a candidate sentence (higher: more likely the result);
        `when`: the time points the outcome names."""
        start = candidate.sentence.start
        return self.picker.score(SentenceSignals(
            candidate.sentence, candidate.tail.score, bool(candidate.heads),
            bool(candidate.comparators), parsed.sections.get(start, ""),
            parsed.position(start), start == 0 and parsed.titled, when))

    def _discovered(self, parsed: ParsedAbstract, abstract: Abstract, query: Query,
                    intervention: Mentions, outcome: Mentions,
                    comparator: Mentions) -> list[Evidence]:
        """intervention -> M rows for a result sentence whose cue governs something other
        than the outcome ('X also raised M'), trusted a little less than named ones."""
        rows: list[Evidence] = []
        for mediator, candidate in discover(parsed, query, intervention, outcome,
                                            comparator, self.namer, self.settings):
            reading = self._refined(candidate)
            if reading is not None:
                row = self._evidence(query.intervention, mediator, reading,
                                     reading.confidence * self.settings.discovered_factor,
                                     abstract, candidate.sentence.text)
                if row is not None:
                    rows.append(row)
        return rows

    def _evidence(self, head: Entity, tail: Entity, reading: Reading, confidence: float,
                  abstract: Abstract, sentence: str) -> Evidence | None:
        """A row carrying this extractor's name, confidence clamped to [0, 0.95]; None
        for a self-loop or an invalid value."""
        if head.id == tail.id:
            return None
        return evidence_row(head, tail, reading.polarity, min(0.95, max(0.0, confidence)),
                            abstract, sentence, self.name)


def _asks_control_against_treatment(intervention: Entity, comparator: Entity) -> bool:
    """'placebo vs drug', 'routine therapy alone vs X plus routine therapy': the question's
    intervention is the arm without the treatment, its comparator an arm with one (not a
    time: 'placebo vs baseline')."""
    other = _name_words(comparator)
    return (opens_as_control(_name_words(intervention)) and not opens_as_control(other)
            and "baseline" not in other)


def _best_score(mentions: Mentions) -> float:
    """The score of the entity's best mention (1.0: named exactly)."""
    return max((m.score for found in mentions.values() for m in found), default=0.0)


def _named_whole(mentions: Mentions) -> bool:
    """Whether some sentence names every word of the entity (exactly, or fuzzily with all
    its keywords)."""
    return any(m.score >= WHOLE_FUZZY_SCORE for found in mentions.values() for m in found)


def _turned_round(row: Evidence, treatment: Entity, control: Entity) -> Evidence:
    """A row read with the treatment as the head, as the control against the treatment
    (the opposite direction); rows of other heads (mediator -> outcome) as they are."""
    if row.head.id != treatment.id:
        return row
    return dataclasses.replace(row, head=control, polarity=Polarity(-int(row.polarity)))


def _adverse(entity: Entity) -> bool:
    """Whether less of the outcome is better ('time to relapse' is not: longer is; nor is
    'pain relief' or 'protection against infection': they name the good that is wanted)."""
    words = _name_words(entity)
    if words[:2] in (["time", "to"], ["duration", "of"]) or not GOOD_OUTCOME_WORDS.isdisjoint(
            words):
        return False
    if "of" in words[1:]:
        # 'understanding of symptoms', 'quality of life': what is measured is the head;
        # 'incidence of nausea' measures the nausea
        head = words[:words.index("of", 1)]
        if head[-1] not in GENERIC_OUTCOME_WORDS and ADVERSE_OUTCOME_WORDS.isdisjoint(head):
            return False
    return any(w in ADVERSE_OUTCOME_WORDS for w in words)


def _good_of_adverse(entity: Entity) -> bool:
    """Whether the outcome names the good wanted of something adverse ('pain relief',
    'improvement in depression severity', 'resolution of cough'), so that a sentence on
    the adverse thing itself reads the other way."""
    words = _name_words(entity)
    return not GOOD_OUTCOME_WORDS.isdisjoint(words) and any(
        w in ADVERSE_OUTCOME_WORDS for w in words if w not in GOOD_OUTCOME_WORDS)


def _names_the_measure(parsed: ParsedAbstract, mention: Mention,
                       measure_forms: frozenset[str]) -> bool:
    """Whether a mention of an outcome that names the good wanted of something adverse
    names only the adverse thing: its words, without the good in any form ('symptoms
    improved' names it), or the short form the outcome's name brackets after it
    ('CGI-BP'; not 'TOPAR8', the short form of 'total pain relief')."""
    words = [parsed.words[i] for i in mention.tokens]
    if "".join(words).lower() in measure_forms:
        return True
    if mention.start and parsed.words[mention.start - 1].lower() == "without":
        return False  # 'spent 49 minutes more without fever': the good, named as such
    return (GOOD_OUTCOME_STEMS.isdisjoint(parsed.stems[i] for i in mention.tokens)
            and not ADVERSE_OUTCOME_WORDS.isdisjoint(words))


def _free_of_event(entity: Entity) -> frozenset[str]:
    """The event of a survival free of one, its words before 'free' ('progression' of
    'progression-free survival'); empty for any other outcome."""
    words = _name_words(entity)
    if "free" not in words or "survival" not in words[words.index("free"):]:
        return frozenset()
    return frozenset(words[:words.index("free")])


def _names_only_the_event(words: list[str], mention: Mention, event: frozenset[str]) -> bool:
    """Whether a mention of an event-free survival names its event alone ('disease
    progression'), not the survival or the freedom from it ('progression-free'), nor a
    short form of the whole ('PFS')."""
    named = {w.lower() for w in words[mention.start:mention.end]}
    after = [w.lower() for w in words[mention.end:mention.end + 2]]
    return (not named.isdisjoint(event)
            and named.isdisjoint(("free", "survival", "survived", "alive"))
            and "free" not in after)


def _measure_short_forms(entity: Entity) -> frozenset[str]:
    """The short forms the outcome's name gives in brackets after an adverse word, so of
    the adverse measure ('improvement in depression severity (CGI-BP)' -> 'cgi-bp'), not
    after the good wanted ('total pain relief (TOPAR8)')."""
    return frozenset(short.lower() for before, short in bracketed_short_forms(entity.name)
                     if before.lower() in ADVERSE_OUTCOME_WORDS)


def _at_the_time_asked(candidates: list[Candidate], when: frozenset[float]) -> list[Candidate]:
    """Where a sentence gives a reading at the time point the outcome names ('upper limb
    function at 12 months'), the sentences that name only other times ('At 12 weeks,
    ...') are not read: a review takes the outcome at its time."""
    if not when:
        return candidates
    named = [time_points(c.sentence.words[c.sentence.start:c.sentence.end])
             for c in candidates]
    asked = [shares_a_time(times, when) for times in named]
    if not any(at and c.reading is not None for at, c in zip(asked, candidates, strict=True)):
        return candidates
    return [c for c, times, at in zip(candidates, named, asked, strict=True) if at or not times]


def _time_points(entity: Entity) -> frozenset[float]:
    """The time points an outcome's name holds ('retention in care at 12 months')."""
    return time_points(entity.name.lower().replace("-", " - ").split())


def _halves_of_composites(parsed: ParsedAbstract, tail: Entity,
                          tails: Mentions) -> frozenset[int]:
    """The sentences that name the outcome only as half of a composite with death, when
    others name it alone: the composite is another outcome than either half. Not for an
    outcome that is a composite or a survival (its event takes in death)."""
    words = _name_words(tail)
    if "or" in words or "survival" in words:
        return frozenset()
    halves = frozenset(start for start, found in tails.items() if parsed.readable(start)
                       and _with_death(parsed.words, max(found, key=lambda m: m.score)))
    alone = any(parsed.readable(start) and start not in halves for start in tails)
    return halves if alone else frozenset()


def _with_death(words: list[str], mention: Mention) -> bool:
    """Whether a mention is one half of a composite with death ('severe retinopathy or
    death', 'death or BPD'): the composite is another outcome than either half."""
    after, before = mention.end, mention.start - 1
    return (after + 1 < len(words) and words[after] == "or" and stem(words[after + 1]) == "death"
            or before >= 1 and words[before] == "or" and stem(words[before - 1]) == "death")


def _timed_mention(words: list[str], mention: Mention) -> bool:
    """Whether a mention is what a time runs to ('time to death', 'time to the first
    exacerbation')."""
    before = [w.lower() for w in words[max(mention.start - 4, 0):mention.start]]
    while before and before[-1] in ("the", "first"):
        before.pop()
    return before[-2:] == ["time", "to"]


def _timed(entity: Entity) -> bool:
    """Whether the outcome is a time ('time to recovery', 'duration of labour'), a
    survival among them: its hazard ratio is the ending event's ('progression-free
    survival ... HR 0.64' is a longer survival)."""
    words = _name_words(entity)
    return not TIME_OUTCOME_WORDS.isdisjoint(words) or "survival" in words


def _reduction(entity: Entity) -> bool:
    """Whether the outcome is named as a fall ('reduction in pain', 'decline of FEV1',
    'CHI3L1 concentration decline')."""
    words = [w for w in _name_words(entity) if w not in ("the", "a", "mean", "greater")]
    named_first = (len(words) > 2 and words[0] in REDUCTION_OUTCOME_WORDS
                   and words[1] in ("in", "of"))
    return named_first or len(words) > 1 and words[-1] in REDUCTION_OUTCOME_WORDS


def _name_words(entity: Entity) -> list[str]:
    """An entity's name as lower-case words, hyphens splitting them ('pain-free')."""
    return entity.name.lower().replace("-", " ").split()


def default_extractor(mesh: MeshIndex | None = None) -> Extractor:
    """The offline rule pipeline, with the shipped confidence model and fallback classifier
    when present. The spaCy
    pipeline is the blank one unless $DACG_SPACY_MODEL names an installed model."""
    return RuleExtractor(nlp=build_nlp(configured_model()), resolver=EntityResolver(mesh),
                         calibration=load_default_model(), fallback=load_default_classifier())

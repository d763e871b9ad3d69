"""Where a query's entities are mentioned in a parsed abstract, sentence by sentence.

`mentions.py` holds the matching itself (exact token lookups, fuzzy keyword coverage);
this module decides what is searched for each entity: its cached terms plus the
abstract's own abbreviations, exact forms first, then a fuzzy search only in the
sentences holding one of its keywords, and for the two arms only the words that tell
them apart.
"""

from __future__ import annotations

import re

from pipeline.extraction.caches import TermsCache
from pipeline.extraction.document import ParsedAbstract
from pipeline.extraction.group_labels import GROUP_LABELS, LABEL_HINT
from pipeline.extraction.lexicon import (
    COUNT_VALUES,
    DOSE_UNITS,
    GENERIC_OUTCOME_WORDS,
    NOT_RIVAL_WORDS,
    REGIMEN_WORDS,
    STOP_WORDS,
)
from pipeline.extraction.mentions import Mention, MentionFinder, Terms, doc_hits, stem
from pipeline.extraction.scales import defined_scales, scales_of
from pipeline.extraction.synonyms import class_members
from pipeline.model import Entity, Query

Mentions = dict[int, list[Mention]]  # sentence start token -> mentions in it, in order
# Words that start a qualifier of an outcome's name: its time point, population or
# measure ('retention in care at 12 months', 'tear volume for murine dry eye').
QUALIFIER_WORDS = frozenset({"at", "after", "by", "during", "before", "within", "over",
                             "among", "for", "until", "measured", "assessed"})
_DOSE = re.compile(rf"(\d+(?:\.\d+)?)\s*({'|'.join(sorted(DOSE_UNITS))})\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?$")
# a short form written in capitals, perhaps with a lower-case first letter and a number
# after ('SVR12', 'pCR', 'CLABSI')
_SHORT_FORM = re.compile(r"\b[a-z]?[A-Z]{2,6}\d*\b")
# 'without carboplatin', 'no radiotherapy': an arm named by what it lacks
_LACKING = re.compile(r"\b(without|no)\s+([\w-]+)\s*$", re.IGNORECASE)
SHORT_FORM_LETTERS = 3  # the fewest letters of a short form read from initials
# words after an outcome's head noun ('exacerbations of COPD', 'pneumonia in ventilated
# infants', 'response at 12 weeks')
HEAD_ENDS = QUALIFIER_WORDS | {"of", "in", "with", "among", "on"}
DOSE_REACH = 2  # tokens on either side of an arm's mention where its dose is written
# What is counted when two arms differ by how many ('two doses' vs 'a single dose').
COUNTED_NOUNS = frozenset({"dose", "session", "injection", "cycle", "course", "application",
                           "fraction", "infusion"})
_REGIMEN_STEMS = frozenset(stem(word) for word in REGIMEN_WORDS)
_COUNTED = re.compile(
    rf"\b(single|\d+|{'|'.join(COUNT_VALUES)})[ -]({'|'.join(COUNTED_NOUNS)})s?\b", re.IGNORECASE)


def _short_forms_of(parsed: ParsedAbstract, shared: set[str], name: str,
                    other: str) -> set[str]:
    """Of the short forms both arms were given, those whose long form has every word of
    this arm's name's and not the other's ('OFA' defined as 'Opioid-free anaesthesia' is
    opioid-free anaesthesia's, not opioid-based anaesthesia's)."""
    own, others = _name_stems(name), _name_stems(other)
    return {short.lower() for short, long in parsed.abbreviations
            if short.lower() in shared and own <= _name_stems(long)
            and not others <= _name_stems(long)}


def _name_stems(name: str) -> set[str]:
    return {stem(w) for w in name.replace("-", " ").split()}


def _without_rival_measures(parsed: ParsedAbstract, terms: Terms,
                            mentions: Mentions) -> Mentions:
    """'Length gain' searched: 'weekly occipitofrontal circumference gain' and 'weight
    gain' match it on the head noun alone, but are other measures. When the abstract
    names the outcome's own modifier in some mention ('no difference in the length'),
    a mention that is only the head noun under another content word is dropped."""
    heads = {full[-1] for kw in terms.keywords
             if len(full := [k for k, w in kw.items() if w >= 1.0]) >= 2}
    if not heads or not any(parsed.stems[i] in terms.stems and parsed.stems[i] not in heads
                            for found in mentions.values() for m in found for i in m.hits):
        return mentions
    kept = {start: [m for m in found if not _rival_measure(parsed, heads, terms, m)]
            for start, found in mentions.items()}
    return {start: found for start, found in kept.items() if found}


def _not_with_for_without(parsed: ParsedAbstract, outcome: Entity,
                          mentions: Mentions) -> Mentions:
    """'Survival without disability' searched: 'survived with a disability' matches its
    words ('without' is no keyword) but is its opposite. A fuzzy mention that writes
    'with' where the name has 'without' is dropped."""
    if "without" not in outcome.name.lower().split():
        return mentions
    kept = {start: [m for m in found if m.exact or not _with_not_without(parsed, m)]
            for start, found in mentions.items()}
    return {start: found for start, found in kept.items() if found}


def _with_not_without(parsed: ParsedAbstract, m: Mention) -> bool:
    words = [w.lower() for w in parsed.words[m.start:m.end]]
    return "with" in words and "without" not in words


def _rival_measure(parsed: ParsedAbstract, heads: set[str], terms: Terms, m: Mention) -> bool:
    """A fuzzy mention whose one hit is the name's head noun, right after a content word
    the name does not have, in the same sentence."""
    if m.exact or len(m.hits) != 1 or m.hits[0] == 0 or parsed.stems[m.hits[0]] not in heads:
        return False
    before = m.hits[0] - 1
    word = parsed.words[before].lower()
    return (word.isalpha() and len(word) > 2 and not word.endswith(("ing", "ed", "ly"))
            and word not in NOT_RIVAL_WORDS and parsed.stems[before] not in terms.stems
            and parsed.sentence_of(before) == parsed.sentence_of(m.hits[0]))


def outcome_head(name: str) -> str | None:
    """The outcome's name without its qualifier ('weight by 30 days of age' -> 'weight'),
    or None when it has none: an abstract often names the outcome without the time
    point or population the question adds."""
    words = name.split()
    cut = next((i for i, word in enumerate(words)
                if i > 0 and (word.lower() in QUALIFIER_WORDS or word.startswith("("))), None)
    return " ".join(words[:cut]) if cut is not None else None


class MentionLocator:
    """Finds the mentions of entities in parsed abstracts."""

    def __init__(self, finder: MentionFinder, terms: TermsCache, fuzzy_threshold: float,
                 arm_threshold: float) -> None:
        """Args:
            finder: exact and fuzzy matching over a doc's tokens and stems.
            terms: each entity's search terms, remembered across abstracts.
            fuzzy_threshold: share of a name's content words a sentence must hold (0-1).
            arm_threshold: the same for an arm, on the words the arms do not share.
        """
        self.finder = finder
        self.terms_cache = terms
        self.fuzzy_threshold = fuzzy_threshold
        self.arm_threshold = arm_threshold

    def terms(self, parsed: ParsedAbstract, entity: Entity) -> Terms:
        """The entity's terms (remembered: a run asks about the same entities in every
        abstract) with this abstract's abbreviations (remembered with the abstract)."""
        key = (entity, entity.aliases)
        terms = parsed.entity_terms.get(key)
        if terms is None:
            terms = parsed.entity_terms[key] = self.finder.expand_abbreviations(
                parsed.abbreviations, self.terms_cache.terms(entity))
        return terms

    def query_mentions(self, parsed: ParsedAbstract,
                       query: Query) -> tuple[Mentions, Mentions, Mentions]:
        """Mentions of intervention, outcome and comparator; the arms are matched fuzzily
        only on the words that tell them apart."""
        arm = self.terms(parsed, query.intervention)
        outcome_terms = self.terms(parsed, query.outcome)
        head = outcome_head(query.outcome.name)
        if head is not None:
            outcome_terms = outcome_terms.with_aliases(self._short_forms(parsed, head))
        outcome_terms = outcome_terms.with_aliases(initialisms(query.outcome.name, parsed.text))
        outcome = _not_with_for_without(parsed, query.outcome, _without_rival_measures(
            parsed, outcome_terms, self.mentions(parsed, outcome_terms)))
        if not outcome and head is not None:
            outcome = self.mentions(parsed, self.terms(parsed, Entity.from_name(head)))
        outcome = self._measured_by_scales(parsed, query.outcome, outcome)
        if query.comparator is None:
            arm = _regimen_light(arm.with_aliases(class_members(query.intervention.name)))
            return (_same_dose(parsed, self.mentions(parsed, arm, self.arm_threshold),
                               query.intervention), outcome, {})
        arm, other = _label_of_the_other_arm(parsed, arm, self.terms(parsed, query.comparator))
        names = query.intervention.name, query.comparator.name
        arm = arm.with_aliases([*distinguishing_forms(*names), *class_members(*names)])
        other = other.with_aliases([*distinguishing_forms(*reversed(names)),
                                    *class_members(*reversed(names))])
        shared = arm.stems & other.stems
        # a phrase both arms have ('group II' defined as an arm both names take in)
        # cannot tell them apart either
        same = {p.lower() for p in arm.phrases} & {p.lower() for p in other.phrases}
        return (_same_dose(parsed, self.mentions(parsed, _regimen_light(arm.without(
                    shared, same - _short_forms_of(parsed, same, names[0], names[1]))),
                    self.arm_threshold), query.intervention),
                outcome,
                _same_dose(parsed, self.mentions(parsed, _regimen_light(other.without(
                    shared, same - _short_forms_of(parsed, same, names[1], names[0]))),
                    self.arm_threshold), query.comparator))

    def _short_forms(self, parsed: ParsedAbstract, head: str) -> list[str]:
        """The abstract's short and long forms for an outcome's name without its
        qualifier ('PHN' for 'incidence of postherpetic neuralgia at six months': the
        time point's words would keep the long form from covering enough of the name)."""
        entity = Entity.from_name(head)
        own = {p.lower() for p in self.terms_cache.terms(entity).phrases}
        return [p for p in self.terms(parsed, entity).phrases if p.lower() not in own]

    def _measured_by_scales(self, parsed: ParsedAbstract, outcome: Entity,
                            found: Mentions) -> Mentions:
        """The outcome's mentions, and in the sentences that do not name it, the scales
        that measure its construct ('HAM-D scores fell' for 'severity of depression'; a
        scale the abstract defines for it, 'RMDQ' for 'disability score'; scales.py),
        matched as written."""
        scales = scales_of(outcome.name) + defined_scales(outcome.name, parsed.abbreviations)
        if not scales:
            return found
        measured = self.mentions(parsed, Terms(outcome, tuple(scales), ()))
        merged = {**measured, **found}
        return {start: merged[start] for start in sorted(merged)}

    def mentions(self, parsed: ParsedAbstract, terms: Terms,
                 threshold: float | None = None) -> Mentions:
        """Mentions of one entity per sentence start token (exact beats fuzzy); the
        fuzzy threshold is `fuzzy_threshold` unless given."""
        if threshold is None:
            threshold = self.fuzzy_threshold
        exact = self.finder.exact(parsed.tokens, terms)
        hits = doc_hits(parsed.stem_positions, terms)
        found: Mentions = {}
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


def initialisms(name: str, text: str) -> list[str]:
    """The short forms an abstract writes for the words that end at the head of the
    outcome's name, by their initials, whether or not it defines them ('SVR12' for 'rate
    of sustained virological response', 'pCR' for 'pathological complete response'); not
    for its measure words ('rate of') or for what follows its head ('exacerbations of
    COPD' is not 'COPD')."""
    words = re.split(r"[\s-]+", name.lower())
    first = next((i for i, w in enumerate(words)
                  if w not in STOP_WORDS and w not in GENERIC_OUTCOME_WORDS), len(words))
    core = []
    for word in words[first:]:
        if word in HEAD_ENDS:
            break
        if word not in STOP_WORDS and word not in GENERIC_OUTCOME_WORDS:
            core.append(word)
    initials = "".join(w[0] for w in core)
    if len(initials) < SHORT_FORM_LETTERS:
        return []  # fewer initials than a short form's letters (most names): no search
    return [form for form in dict.fromkeys(_SHORT_FORM.findall(text))
            if len(letters := form.rstrip("0123456789").lower()) >= SHORT_FORM_LETTERS
            and initials.endswith(letters)]


def _label_of_the_other_arm(parsed: ParsedAbstract, arm: Terms,
                            other: Terms) -> tuple[Terms, Terms]:
    """Of the two group labels an abstract writes, the one an arm does not take is the
    other arm's when that arm took none ('group A treated by endoscopy and 49 patients
    in group B treated by conventional therapy', asked as endoscopy vs surgery)."""
    if not LABEL_HINT.search(parsed.text):
        return arm, other
    written = {label.lower(): label for label in GROUP_LABELS.findall(parsed.text)}
    if len(written) != 2:
        return arm, other
    first = written.keys() & {p.lower() for p in arm.phrases}
    second = written.keys() & {p.lower() for p in other.phrases}
    if len(first) == 1 and not second:
        return arm, other.with_aliases([written[k] for k in written.keys() - first])
    if len(second) == 1 and not first:
        return arm.with_aliases([written[k] for k in written.keys() - second]), other
    return arm, other


def distinguishing_forms(name: str, other: str) -> list[str]:
    """How an abstract writes what alone tells an arm from the other when both names
    hold a dose or a count of something given ('high-dose patches (42 mg/day)' vs
    '(21 mg/day)' -> '42 mg'; 'two doses' vs 'a single dose' -> 'two doses', '2 doses'),
    or one names what the other lacks ('with added carboplatin' vs 'without carboplatin'),
    as the words the arms share cannot."""
    written: list[str] = []
    doses = {(n, u.lower()) for n, u in _DOSE.findall(name)}
    other_doses = {(n, u.lower()) for n, u in _DOSE.findall(other)}
    if doses and other_doses and not doses & other_doses:
        written += [f"{number} {unit}" for number, unit in sorted(doses)]
    counts = {(_count(c), n.lower()) for c, n in _COUNTED.findall(name)}
    other_counts = {(_count(c), n.lower()) for c, n in _COUNTED.findall(other)}
    if counts and other_counts and not counts & other_counts:
        for value, noun in sorted(counts):
            plural = noun + "s" if value != 1 else noun
            words = [w for w, v in COUNT_VALUES.items() if v == value]
            written += [f"{w} {plural}" for w in (*words, str(value))]
            written += ["single " + noun] if value == 1 else []
    return written + _with_or_without(name, other)


def _with_or_without(name: str, other: str) -> list[str]:
    """'with added carboplatin' vs 'without carboplatin': the added thing, written with
    the word that adds it, is the arm that has it ('with carboplatin', 'plus
    carboplatin'); 'without carboplatin' or 'omission of carboplatin' the arm that has
    not."""
    lacking = _LACKING.search(name)
    if lacking and lacking.group(2).lower() in other.lower():
        return [f"{lead} {lacking.group(2)}"
                for lead in ("without", "no", "omission of", "omitting")]
    lacking = _LACKING.search(other)
    if lacking and lacking.group(2).lower() in name.lower():
        return [f"{lead} {lacking.group(2)}" for lead in ("with", "plus", "with added")]
    return []


def _count(word: str) -> int:
    word = word.lower()
    return 1 if word == "single" else COUNT_VALUES.get(word) or int(word)


def _regimen_light(terms: Terms) -> Terms:
    """An arm is also looked for without its words for how, how often and how much it is
    given: 'single-dose oral fosfomycin' or 'biannual mass azithromycin distribution' is
    written 'fosfomycin' or 'azithromycin' in the results. Not when they are all that is
    left to tell the arms apart ('low-dose' against 'high-dose')."""
    return terms.with_keyword_sets(
        {s: w for s, w in keywords.items() if s not in _REGIMEN_STEMS}
        for keywords in terms.keywords
        if any(w == 1.0 and s not in _REGIMEN_STEMS for s, w in keywords.items()))


def _same_dose(parsed: ParsedAbstract, found: Mentions, arm: Entity) -> Mentions:
    """The arm's fuzzy mentions without those written with another dose: in a
    dose-ranging trial 'higher than etoricoxib 60 mg' is not about '120 mg etoricoxib'."""
    doses = {number for number, _ in _DOSE.findall(arm.name)}
    if not doses:
        return found
    words = parsed.words
    kept: Mentions = {}
    for start, mentions in found.items():
        same = [m for m in mentions if m.exact or not _other_dose(words, m, doses)]
        if same:
            kept[start] = same
    return kept


def _other_dose(words: list[str], mention: Mention, doses: set[str]) -> bool:
    """Whether a dose that is none of `doses` is written next to the mention, and none
    of them inside it."""
    if not doses.isdisjoint(words[mention.start:mention.end]):
        return False
    near = [*range(mention.end, mention.end + DOSE_REACH),
            *range(mention.start - DOSE_REACH, mention.start)]
    return any(0 <= i < len(words) - 1 and _NUMBER.match(words[i]) is not None
               and words[i] not in doses and words[i + 1] in DOSE_UNITS for i in near)

"""Reading one sentence: the direction of head -> tail, relative to the comparator arm.

Order of decisions (each documented in docs/extraction.md): aims and definitions are not
findings; the clause that holds the tail is read; a null phrase or a negated cue gives 0;
so does a measure or arm set apart by 'but not', or the head likened to the comparator;
otherwise the direction cue nearest the tail gives the sign, flipped when the comparator
is the subject ("lower in the placebo group" = higher with the intervention); a
non-significant p or an interval crossing the null turns a direction into 0.

The words the rules look for are in `lexicon.py`; this module holds the decisions and the
token windows they look in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pipeline.extraction.lexicon import (
    AMOUNT_LEADS,
    ARM_NOUNS,
    ARM_PREPOSITIONS,
    ASSOCIATION_WORDS,
    BASELINE_PHRASES,
    CHANGE_PREPOSITIONS,
    CHANGE_WORDS,
    CLAUSE_BREAKS,
    COMBINATION_JOINERS,
    CONCESSIONS,
    CONTROL_WORDS,
    CONTROLLED_WORDS,
    COPULAS,
    CORRELATION_WORDS,
    COUNT_VALUES,
    COUNT_WORDS,
    DEGREE_WORDS,
    FOLLOW_UP_BREAKS,
    FOLLOW_UP_SUBJECTS,
    GRADING_WORDS,
    HEDGES,
    LESS_WORDS,
    LIKENED_LINKS,
    LIKENED_WORDS,
    LIKENESS_WORDS,
    MORE_WORDS,
    NEGATIONS,
    OBJECTIVE_WORDS,
    OPENING_LEADS,
    OPENING_MARKERS,
    PACE_CUES,
    PREDICATE_LEADS,
    PREDICATE_ONLY,
    RANKED_WORDS,
    SET_APART_LEADS,
    SET_APART_MARKERS,
    SIGN_OF,
    SIGNIFICANT_WORDS,
    STOP_WORDS,
    TREATED_WORDS,
    VALENCE_CUES,
    WEAK_CUES,
)
from pipeline.extraction.mentions import Mention
from pipeline.extraction.stats import Significance, Statistic, nearest_significance
from pipeline.extraction.timepoints import same_time, time_positions

_NUMBER = re.compile(r"^[-+]?\d+(?:[.,]\d+)?%?$")
_FRACTION = re.compile(r"^(\d+)/(\d+)$")  # events over a total ('13/39')
FROM_LOOKAHEAD = 6  # tokens after the outcome where its 'from A to B' may begin
SHARE_LOOKBACK = 4  # tokens before 'of' searched for a count over a whole ('15 of 3552')
NUMBERS_CUE = "<numbers>"  # the cue of a reading from the arms' values
SET_APART_REACH = 2  # words between 'but not' and the measure set apart ('but not against')
LIKENESS_REACH = 8  # tokens from 'similar' to the 'to' before the comparator
# Words that end the phrase a likeness word leads ('similar ... to C').
PHRASE_BREAKS = frozenset({"to", "with", "than", "(", ")"})
# Words before the arm a likeness names ('similar to that of naproxen', 'with both A and B').
REFERENCE_LEADS = frozenset({"the", "that", "those", "of", "both", "all", "each", "either"})
TIME_PREPOSITIONS = frozenset({"at", "after", "by", "in", "on", "until", "to"})
NUMBER_LOOKBACK = 12  # tokens before an arm searched for its value ('4 for bolus therapy')
COPULA_LOOKAHEAD = 4  # tokens after an arm searched for 'was N' ('in B, it was 60%')
# A number after one of these is a spread or a range end, not an arm's value; spaCy splits
# "+/-" into "+" and "/-".
SPREAD_MARKERS = frozenset({"±", "+/-", "/-", "to", "sd"})
NEGATION_WINDOW = 3  # tokens before a cue in which a negation negates it
BOTH_ARMS_GAP = 2  # 'both the A and B groups': tokens from 'both' to the first arm
FOLLOW_UP_WINDOW = 4  # tokens at the start of the next clause that may refer back to it
REFERENCE_WINDOW = 5  # tokens after 'than'/'versus' in which the reference arm is named
SUBJECT_WINDOW = 8  # tokens after a cue (or 'to') in which its arm is named
OPENING_REACH = 15  # tokens after an opening 'Compared with' in which its comma ends it
BETWEEN_WINDOW = 4  # tokens after a null phrase, then after 'between', naming the arms
ARM_LEAD = 2  # tokens after a preposition in which the arm it leads to begins ("in the A group")
FOLLOW_UP_LEAD = 2  # tokens before a subjectless null ('but did not', 'there was no')
DEGREE_WINDOW = 2  # tokens before the outcome a plain 'low' / 'high' may stand


@dataclass(slots=True)
class Sentence:
    """One sentence of a parsed doc, with what the lexicon and the statistics found in it.
    Token positions are doc positions; statistic offsets are relative to `text`."""

    start: int
    end: int
    text: str
    char_start: int
    words: Sequence[str]
    token_chars: Sequence[int]
    nulls: list[tuple[int, int]] = field(default_factory=list)
    compares: list[tuple[int, int]] = field(default_factory=list)
    definitions: list[tuple[int, int]] = field(default_factory=list)
    stats: list[Statistic] = field(default_factory=list)
    within: list[tuple[int, int]] = field(default_factory=list)
    # a null that the next sentence says of this one's finding ('However, these
    # differences were not statistically significant.'), or that it says it was
    # significant ('This difference was statistically significant.')
    withdrawn: tuple[int, int] | None = None
    affirmed: bool = False

    @property
    def is_aim(self) -> bool:
        """An aim, a question or a definition of outcomes (or a statement of prior
        knowledge): no finding to read."""
        if self.definitions or self.words[self.end - 1] == "?":
            return True
        if self.stats:
            return False
        return not OBJECTIVE_WORDS.isdisjoint(self.words[self.start:self.end])

    @property
    def relates_measures(self) -> bool:
        """A correlation between two measures, not a comparison of arms."""
        return not CORRELATION_WORDS.isdisjoint(self.words[self.start:self.end])

    @property
    def says_significant(self) -> bool:
        """'There was a significant difference in X between the groups (P < 0.01)': no
        null wording, and a significant statistic or the word."""
        return not self.nulls and (
            any(s.significance is Significance.SIGNIFICANT for s in self.stats)
            or any(w in ("significant", "significantly")
                   for w in self.words[self.start:self.end]))

    @property
    def hedged(self) -> bool:
        return not HEDGES.isdisjoint(self.words[self.start:self.end])

    @property
    def at_baseline(self) -> bool:
        """Whether it compares the arms before treatment ('similar at baseline')."""
        words = self.words
        if any(words[i] == phrase[0] and tuple(words[i:i + len(phrase)]) == phrase
               for i in range(self.start, self.end) for phrase in BASELINE_PHRASES):
            return True
        # 'the baseline HRQOL scores were comparable'; not 'change from the baseline'
        return any(words[i] == "the" and words[i + 1] == "baseline"
                   and (i == self.start or words[i - 1] not in CHANGE_PREPOSITIONS)
                   for i in range(self.start, self.end - 1))


@dataclass(frozen=True, slots=True)
class Reading:
    """What a sentence says about head -> tail. `cue` is the word that set the sign."""

    polarity: int
    confidence: float
    significance: Significance
    cue: str = ""
    flipped: bool = False
    hedged: bool = False
    negated: bool = False
    null_phrase: bool = False


@dataclass(frozen=True, slots=True)
class Candidate:
    """A sentence that mentions the tail, the mentions in it, and the rules' reading."""

    sentence: Sentence
    tail: Mention
    heads: tuple[Mention, ...]
    comparators: tuple[Mention, ...]
    reading: Reading | None
    adverse: bool = False



def read(sentence: Sentence, tail: Mention, heads: Sequence[Mention],
         comparators: Sequence[Mention], adverse_tail: bool = False,
         timed_tail: bool = False, reduction_tail: bool = False,
         when: frozenset[float] = frozenset()) -> Reading | None:
    """The head -> tail polarity this sentence states about the tail mention, or None when
    it states none (an aim, no cue, or a significant result without a direction).
    `adverse_tail` says the tail is something patients want less of (pain, mortality), so
    that 'improved' reads as a decrease; `timed_tail` that it is a time ('time to
    recovery'), so that 'recovered earlier' reads as a decrease; `reduction_tail` that it
    is named as a fall ('reduction in pain'), so that a sentence on the pain itself reads
    the other way; `when` the time points the outcome names (days), so that a sentence
    that says different things at different times is read at the outcome's. Arms alike
    at baseline is not a null finding: it says how the arms began."""
    reading = _read(sentence, tail, heads, comparators, adverse_tail, timed_tail)
    if reading is not None and when:
        reading = _read_at(when, sentence, tail, heads, comparators, adverse_tail,
                           timed_tail) or reading
    if reading is not None and reading.polarity and (
            _set_apart(sentence.words, tail)
            or (heads and _set_apart(sentence.words, max(heads, key=lambda m: m.score)))
            or _likened_to_comparator(sentence, comparators)):
        reading = Reading(0, _bounded(0.5 - 0.15 * sentence.hedged), reading.significance,
                          hedged=sentence.hedged, null_phrase=True)
    if reading is not None and reading.polarity == 0 and sentence.at_baseline:
        return None
    if reading is not None and reduction_tail and not any(
            sentence.words[i] in SIGN_OF for i in range(tail.start, tail.end)):
        # 'reduction in pain' matched as 'pain': less pain is more reduction
        return replace(reading, polarity=-reading.polarity)
    return reading


def _set_apart(words: Sequence[str], mention: Mention) -> bool:
    """'reduced A but not B', 'efficacy against A but not against B', 'lower with drug A
    but not with drug B': the direction the clause states is A's; the measure or arm B is
    set apart from it."""
    i = mention.start - 1
    for _ in range(SET_APART_REACH):
        if i < 0 or words[i] not in SET_APART_LEADS:
            break
        i -= 1
    return i >= 1 and words[i] == "not" and words[i - 1] in SET_APART_MARKERS


def _likened_to_comparator(sentence: Sentence, comparators: Sequence[Mention]) -> bool:
    """'superior to placebo and acetaminophen, and a similar score to naproxen': the
    sentence likens the head to the comparator, whatever it says of other arms. The
    likeness word leads the phrase ending in 'to C' within LIKENESS_REACH tokens, with no
    direction, bracket or other reference in between."""
    words = sentence.words
    for mention in comparators:
        link = mention.start - 1
        while link >= sentence.start and words[link] in REFERENCE_LEADS:
            link -= 1
        if link < sentence.start or words[link] not in LIKENED_LINKS:
            continue
        for i in range(link - 1, max(sentence.start, link - LIKENESS_REACH) - 1, -1):
            if words[i] in LIKENED_WORDS:
                return True
            if words[i] in SIGN_OF or words[i] in PHRASE_BREAKS:
                break
    return False


def _read(sentence: Sentence, tail: Mention, heads: Sequence[Mention],
          comparators: Sequence[Mention], adverse_tail: bool,
          timed_tail: bool) -> Reading | None:
    if sentence.is_aim or sentence.relates_measures:
        return None
    start, end = _clause(sentence, tail)
    words = sentence.words
    arm_tokens = {i for m in (*heads, *comparators) for i in m.tokens}
    head_tokens = {i for m in heads for i in m.tokens}
    parenthesised = _parenthesised(words, start, end, tail)
    # the words inside the outcome's mention are its name ('the pain increase in the
    # neck was lower'), not what the sentence says happened to it
    cue_at, sign = _nearest_cue(words, start, end, tail,
                                arm_tokens | set(range(tail.start, tail.end)) | parenthesised)
    if cue_at is None:
        cue_at, sign = _degree_before_tail(sentence, start, end, tail)
    if cue_at is None:
        # the outcome's own wording may carry the direction ('better global
        # improvement', 'more likely to define the steps'): the sentence says it happened,
        # unless the arms' own values say which way ('the proportion needing additional
        # treatment was 3.1% after A and 7.2% after B')
        cue_at, sign = _nearest_cue(words, start, end, tail, arm_tokens | parenthesised)
        if cue_at is not None and _numeric_direction(sentence, start, end, tail, heads,
                                                     comparators) is not None:
            cue_at = None
    negated = cue_at is not None and _negated(words, max(start, cue_at - NEGATION_WINDOW),
                                              cue_at, range(tail.start, tail.end))
    null_spans = [span for span in (
        # a null inside the outcome's name, matched as written, is part of it ('success,
        # without antibiotic change')
        _nearest_span([s for s in sentence.nulls if start <= s[0] < end
                       and not (tail.exact and tail.start <= s[0] < tail.end)
                       and not _likened_to_another(words, s, start, end, arm_tokens,
                                                   head_tokens)], tail),
        _null_follow_up(sentence, end, arm_tokens, head_tokens)) if span is not None]
    said_within = any(start <= s[0] < end for s in sentence.within) and not any(
        start <= s[0] < end for s in sentence.compares)
    within = said_within or _both_arms_before(words, start, cue_at, heads, comparators)
    offset = sentence.token_chars[tail.start] - sentence.char_start
    stat = nearest_significance(sentence.stats, offset)
    significance = stat.significance if stat else (
        Significance.SIGNIFICANT if sentence.affirmed else Significance.NOT_REPORTED)
    said_significant = any(words[i] in SIGNIFICANT_WORDS and not _inside(i, sentence.nulls)
                           for i in range(start, end))
    hedged = sentence.hedged
    if cue_at is not None:
        # a null farther from the tail than a cue of a significant change is about
        # something else, unless it is said of the arms after the cue ('higher in both
        # groups than before, but no differences between the groups')
        cue_distance = _distance(cue_at, cue_at + 1, tail)
        null_spans = [span for span in null_spans if not (
            _distance(*span, tail) > cue_distance and not negated and (
                significance is Significance.SIGNIFICANT
                or _conjoined_apart(words, span[1], min(cue_at, tail.start))) and not (
                span[0] > cue_at and _between_arms(words, span[1], sentence.end,
                                                   arm_tokens, head_tokens)))]
    null_span = null_spans[0] if null_spans else None
    graded = _graded_change(words, start, sentence.end) if within else None
    if graded is not None and not negated:
        # 'increased in both groups, with a greater increase in the X group': the
        # comparison of the changes is the between-arm finding
        polarity = _compound_sign(words, start, sentence.end, graded) * (
            -1 if _comparator_is_subject(sentence, graded, sentence.end, graded, heads,
                                         comparators) else 1)
        if adverse_tail and words[graded + 1] in VALENCE_CUES:
            polarity = -polarity
        return Reading(polarity, _bounded(0.6 - 0.15 * hedged), significance, words[graded],
                       hedged=hedged)
    if within and cue_at is not None and not negated:
        compared = _compared_after(sentence, end, heads, comparators)
        if compared is not None:
            return Reading(compared[0], _bounded(0.6 - 0.15 * hedged), significance,
                           words[compared[1]], hedged=hedged)
        return Reading(0, _bounded(0.45 - 0.15 * hedged), significance, words[cue_at],
                       hedged=hedged)
    if null_span is not None and not negated and cue_at is None and set(
            words[null_span[0]:null_span[1]]) <= LIKENESS_WORDS:
        # 'the risk was similar between years 0-10 (HR 0.72, 0.59-0.88)': a likeness
        # that a significant estimate contradicts compares something else (periods,
        # subgroups); the estimate is the between-arm finding
        estimate = nearest_significance([st for st in sentence.stats if st.direction],
                                        sentence.token_chars[tail.start] - sentence.char_start)
        if estimate is not None:
            return Reading(estimate.direction, _bounded(0.5 - 0.15 * hedged),
                           Significance.SIGNIFICANT, hedged=hedged)
    if null_span is not None or negated:
        explicit = null_span is not None and any(
            words[i] in SIGNIFICANT_WORDS or words[i].startswith(("differ", "signific"))
            for i in range(*null_span))
        confidence = 0.55 + 0.15 * explicit + 0.2 * (
            significance is Significance.NOT_SIGNIFICANT)
        return Reading(0, _bounded(confidence - 0.15 * hedged), significance,
                       words[cue_at] if cue_at is not None else "", hedged=hedged,
                       negated=negated, null_phrase=null_span is not None)
    if cue_at is None:
        numeric = _numeric_direction(sentence, start, _contrast_end(words, end, sentence.end),
                                     tail, heads, comparators)
        if numeric is not None and significance is Significance.SIGNIFICANT:
            return Reading(numeric, _bounded(0.6 - 0.15 * hedged), significance, NUMBERS_CUE)
        if stat is not None and stat.significance is Significance.NOT_SIGNIFICANT:
            return Reading(0, _bounded(0.5 - 0.15 * hedged), significance, hedged=hedged)
        # an estimate whose interval excludes the null gives its own direction, even when
        # a bare p-value sits nearer the outcome ('IRR 0.07 (95% CI 0.01-0.57, p=0.013)')
        estimate = nearest_significance([s for s in sentence.stats if s.direction], offset)
        if estimate is not None:
            return Reading(estimate.direction, _bounded(0.55 - 0.15 * hedged),
                           Significance.SIGNIFICANT, hedged=hedged)
        return None
    cue = words[cue_at]
    summed_up = _summed_up_values(sentence, start, cue_at, tail, heads, comparators)
    flipped = summed_up is None and _comparator_is_subject(sentence, start, end, cue_at,
                                                           heads, comparators)
    polarity = sign * (-1 if flipped else 1) * _modifier_sign(words, heads, start, cue_at)
    if adverse_tail and cue in VALENCE_CUES or timed_tail and cue in PACE_CUES:
        polarity = -polarity
    if cue in VALENCE_CUES:
        # 'improved the RDI from 22.2 to 16.5 events per hour': the numbers say which way
        # the outcome went, whatever it is named
        moved = _values_moved(words, cue_at, min(end, tail.end + FROM_LOOKAHEAD), end)
        if moved is not None:
            polarity = moved * (-1 if flipped else 1)
    if summed_up is not None:
        polarity = summed_up
    if significance is Significance.NOT_SIGNIFICANT and not said_significant:
        return Reading(0, _bounded(0.5 - 0.15 * hedged), significance, cue, flipped, hedged)
    confidence = 0.5
    confidence += 0.2 * (significance is Significance.SIGNIFICANT or said_significant)
    confidence += 0.1 * (cue not in WEAK_CUES)
    confidence += 0.1 * tail.exact
    confidence += 0.05 * bool(heads)
    confidence -= 0.2 * hedged
    return Reading(polarity, _bounded(confidence), significance, cue, flipped, hedged)


def _read_at(when: frozenset[float], sentence: Sentence, tail: Mention,
             heads: Sequence[Mention], comparators: Sequence[Mention], adverse_tail: bool,
             timed_tail: bool) -> Reading | None:
    """'lower at 1 min, but no difference at 5 min' asked at 5 min: the clause naming the
    outcome's time point, when the tail's clause does not; 'higher at 4 weeks (but not at
    4 months)' asked at 4 months: a null. None when the tail's own reading stands."""
    words = sentence.words
    start, end = _clause(sentence, tail)
    named = [i for i, days in time_positions(words, sentence.start, sentence.end)
             if any(same_time(days, point) for point in when)]
    if not named:
        return None
    inside = [i for i in named if start <= i < end]
    if inside:
        i = inside[0]
        if i > 1 and words[i - 2] == "not" and words[i - 1] in TIME_PREPOSITIONS:
            return Reading(0, _bounded(0.55 - 0.15 * sentence.hedged),
                           Significance.NOT_REPORTED, hedged=sentence.hedged)
        return None
    # a word of the clause must say it: the arms' numbers read from a time point are
    # as likely a data list as the finding at that time
    reading = _read(sentence, Mention(named[0], named[0] + 1, tail.score), heads,
                    comparators, adverse_tail, timed_tail)
    if reading is None or reading.polarity and reading.cue in ("", NUMBERS_CUE):
        return None
    return reading


def _bounded(value: float) -> float:
    return min(0.95, max(0.05, round(value, 3)))


def _clause(sentence: Sentence, tail: Mention) -> tuple[int, int]:
    """The tail's clause: bounded by ';', 'but', 'whereas', ', while', 'however'. A
    concession ('Although A did not differ, B improved'; '... revealed that, although A
    did not differ, B improved') puts a tail after its comma in the main clause."""
    words = sentence.words
    start = sentence.start
    depth = 0  # a ';' inside parentheses ('(52%; 95% CI 43.8-60.3)') ends no clause
    for i in range(tail.start - 1, sentence.start - 1, -1):
        depth = max(0, depth + (words[i] in (")", "]")) - (words[i] in ("(", "[")))
        if not depth and _breaks(words, i) and (words[i] != "although" or i > sentence.start):
            start = i + 1
            break
    if (words[start] in CONCESSIONS if start == sentence.start
            else words[start - 1] in ("although", "though")):
        comma = next((i for i in range(start, tail.start) if words[i] == ","), None)
        if comma is not None:
            start = comma + 1
    end = sentence.end
    depth = 0
    for i in range(tail.end, sentence.end):
        depth = max(0, depth + (words[i] in ("(", "[")) - (words[i] in (")", "]")))
        if not depth and _breaks(words, i):
            end = i
            break
    return start, end


def _compared_after(sentence: Sentence, end: int, heads: Sequence[Mention],
                    comparators: Sequence[Mention]) -> tuple[int, int] | None:
    """'rose in both groups but was lower with A than with B': after a change within
    every arm, a clause with no subject of its own that compares the arms is the
    between-arm finding; (polarity, the comparative's token) or None."""
    words = sentence.words
    if end >= sentence.end or words[end] != "but":
        return None
    stop = _next_break(words, end + 1, sentence.end)
    cue = end + 1
    while cue < stop and (words[cue] in COPULAS or words[cue] in SIGNIFICANT_WORDS):
        cue += 1
    if cue in (end + 1, stop) or (words[cue] not in MORE_WORDS and words[cue] not in LESS_WORDS):
        return None
    if not _arms(sentence, cue, stop, heads, comparators):
        return None
    flipped = _comparator_is_subject(sentence, cue, stop, cue, heads, comparators)
    return SIGN_OF[words[cue]] * (-1 if flipped else 1), cue


def _contrast_end(words: Sequence[str], end: int, sentence_end: int) -> int:
    """'48% of the patients in the A group, whereas 10% of the B group': the contrast
    clause holds the other arm's value, so the arms' numbers are read up to its end."""
    if end >= sentence_end or words[end] not in ("whereas", "while"):
        return end
    return _next_break(words, end + 1, sentence_end)


def _parenthesised(words: Sequence[str], start: int, end: int, tail: Mention) -> set[int]:
    """Tokens inside parentheses (definitions, statistics), unless the tail is there too."""
    inside = _inside_parentheses(words, start, end)
    return set() if tail.start in inside else inside


def _inside_parentheses(words: Sequence[str], start: int, end: int) -> set[int]:
    """Tokens from `start` to `end` inside parentheses opened after `start`."""
    inside: set[int] = set()
    depth = 0
    for i in range(start, end):
        if words[i] in ("(", "["):
            depth += 1
        elif words[i] in (")", "]"):
            depth = max(0, depth - 1)
        elif depth:
            inside.add(i)
    return inside


def _likened_to_another(words: Sequence[str], span: tuple[int, int], start: int, end: int,
                        arm_tokens: set[int], head_tokens: set[int]) -> bool:
    """'superior to placebo and similar to naproxen': a likeness to an arm other than the
    comparator, which the clause names elsewhere, says nothing of the two compared."""
    if span[1] >= end or words[span[1]] not in ("to", "with"):
        return False
    reference = span[1] + 1
    while reference < end and words[reference] in REFERENCE_LEADS:
        reference += 1
    return (reference < end and reference not in arm_tokens
            and words[reference] not in ARM_NOUNS and words[reference] not in CONTROL_WORDS
            and any(start <= i < end for i in arm_tokens - head_tokens))


def _null_follow_up(sentence: Sentence, end: int, arm_tokens: set[int],
                    head_tokens: set[int]) -> tuple[int, int] | None:
    """'X was more frequent with A (79% vs 69%), but the difference was not significant':
    a null phrase in the next clause, whose subject refers back to the tail's finding or
    which is said of the arms with no subject of its own ('improved over time but did not
    differ between groups'; not '; only scores for X did not differ between arms'); for
    the last clause, the next sentence's (`Sentence.withdrawn`)."""
    words = sentence.words
    if end >= sentence.end:
        return sentence.withdrawn
    if words[end] not in FOLLOW_UP_BREAKS:
        return None
    first = end + 1
    while first < sentence.end and (words[first] == "," or _breaks(words, first)):
        first += 1  # '; however, this decrease ...'
    stop = _next_break(words, first, sentence.end)
    span = next((s for s in sentence.nulls if first <= s[0] < stop), None)
    if span is None:
        return None
    if any(words[i] in FOLLOW_UP_SUBJECTS
           for i in range(first, min(stop, first + FOLLOW_UP_WINDOW))):
        return span
    if span[0] - first > FOLLOW_UP_LEAD:
        return None
    # with no subject of its own, a null is said of the arms ('but did not differ between
    # groups') or, ending its clause, of the finding before it ('but did not reach
    # statistical significance'; not 'but no significant difference among infants who ...')
    of_the_finding = any(words[i].startswith("signific") for i in range(*span)) and (
        span[1] >= stop or words[span[1]] in (".", ",", "(", ")"))
    return span if of_the_finding or _between_arms(words, span[1], stop, arm_tokens,
                                                   head_tokens) else None


def _between_arms(words: Sequence[str], after: int, end: int, arm_tokens: set[int],
                  head_tokens: set[int]) -> bool:
    """'improved over time but did not differ between groups', 'reduced with all
    treatments, with no differences between groups': a null said of the arms is the
    between-arm finding, whatever change each arm saw; not one said between the
    intervention's own doses ('no difference between etoricoxib 90 and 120 mg'). A null
    said of the intervention itself is its finding too ('higher for CBT and GET, but did
    not differ for APT'; 'but this difference was not significant in the face-to-face
    group'). Not a null between the comparator and a third arm ('between the digoxin and
    placebo groups')."""
    if after + 1 < end and words[after] in ARM_PREPOSITIONS and any(
            j in head_tokens for j in range(after + 1, min(end, after + 1 + ARM_LEAD))):
        return True
    for i in range(after, min(end, after + BETWEEN_WINDOW)):
        if words[i] in ("between", "among"):
            named = range(i + 1, min(end, i + 1 + BETWEEN_WINDOW))
            if _third_arm(words, i, named, arm_tokens, head_tokens):
                return False
            if any(words[j] in ARM_NOUNS or j in arm_tokens - head_tokens for j in named):
                return True
            return any(j in head_tokens for j in named) and "and" not in (
                words[j] for j in named if j not in head_tokens)
    return False


def _third_arm(words: Sequence[str], between: int, named: range, arm_tokens: set[int],
               head_tokens: set[int]) -> bool:
    """'between the digoxin and placebo groups': an arm named, the intervention not, and
    before the 'and' a word that is neither an arm's mention nor a word for an arm."""
    if not head_tokens.isdisjoint(named) or arm_tokens.isdisjoint(named):
        return False
    joined = next((j for j in named if words[j] == "and"), None)
    return joined is not None and any(
        words[j].isalpha() and j not in arm_tokens and words[j] not in STOP_WORDS
        and words[j] not in ARM_NOUNS and words[j] not in TREATED_WORDS
        and words[j] not in CONTROL_WORDS and words[j] not in COUNT_WORDS
        for j in range(between + 1, joined))


def _conjoined_apart(words: Sequence[str], after: int, before: int) -> bool:
    """'X was not associated with A, and presented more B': ', and' opens a second
    predicate between the null and the tail's cue, so the null is not about B."""
    return any(words[i] == "and" and words[i - 1] == "," for i in range(after + 1, before))


def _both_arms_before(words: Sequence[str], start: int, cue_at: int | None,
                      heads: Sequence[Mention], comparators: Sequence[Mention]) -> bool:
    """'Both A and B significantly attenuated M': the two arms together are the subject,
    so each changed, a within-arm finding rather than one arm against the other."""
    if cue_at is None:
        return False
    for i in range(start, cue_at):
        if words[i] != "both":
            continue
        named = [[m for m in arm if i < m.start and m.end <= cue_at]
                 for arm in (heads, comparators)]
        if all(named) and min(m.start for m in named[0] + named[1]) <= i + BOTH_ARMS_GAP:
            return True
    return False


def _breaks(words: Sequence[str], i: int) -> bool:
    """A clause boundary; 'X, but not Y, reduced Z' is one clause. 'No differences in
    any parameter except that X was lower in A' opens a clause of its own ('except for one
    case' does not)."""
    following = words[i + 1] if i + 1 < len(words) else ""
    return (words[i] in CLAUSE_BREAKS and not (words[i] == "but" and following == "not")
            or words[i] == "except" and following == "that")


def _next_break(words: Sequence[str], first: int, end: int) -> int:
    """The end of the clause that begins at `first`: its next boundary, else `end`."""
    return next((i for i in range(first, end) if _breaks(words, i)), end)


def _distance(start: int, end: int, mention: Mention) -> int:
    if end <= mention.start:
        return mention.start - end + 1
    if start >= mention.end:
        return start - mention.end + 2  # cues after the tail ("Y fell") weigh a little less
    return 0


def _nearest_cue(words: Sequence[str], start: int, end: int, tail: Mention,
                 taken: set[int]) -> tuple[int | None, int]:
    best: tuple[int, int] | None = None
    for i in range(start, end):
        if (i in taken or words[i] not in SIGN_OF or _purpose(words, i) or is_amount(words, i)
                or _at_risk(words, i) or _blinding(words, i)):
            continue
        if words[i] in ("inversely", "inverse", "negatively", "positively") and not (
                i + 1 < end and words[i + 1] in ASSOCIATION_WORDS):
            continue
        if words[i] in PREDICATE_ONLY and not (i > 0 and words[i - 1] in PREDICATE_LEADS):
            continue
        distance = _distance(i, i + 1, tail)
        if best is None or distance < best[0]:
            best = (distance, i)
    if best is None:
        return None, 0
    return best[1], _compound_sign(words, start, end, best[1], range(tail.start, tail.end))


def _degree_before_tail(sentence: Sentence, start: int, end: int,
                        tail: Mention) -> tuple[int | None, int]:
    """'screened houses recorded relatively low malaria prevalence compared to the
    control houses': a plain 'low' / 'high' right before the outcome, in a clause that
    compares the arms, is a comparative."""
    if not any(start <= s[0] < end for s in sentence.compares):
        return None, 0
    words = sentence.words
    for i in range(tail.start - 1, max(start, tail.start - DEGREE_WINDOW) - 1, -1):
        if words[i] in DEGREE_WORDS:
            return i, DEGREE_WORDS[words[i]]
    return None, 0


def _compound_sign(words: Sequence[str], start: int, end: int, at: int,
                   named: range = range(0)) -> int:
    """'a greater reduction', 'reduced X more than Y': a bare comparative takes its sign
    from the change word it grades (and 'less' inverts it), not from one inside the
    outcome's name (`named`: 'a greater percentage decrease in tidal volume' is more of
    that decrease)."""
    sign = SIGN_OF[words[at]]
    if words[at] in CHANGE_WORDS:
        # 'decreased significantly less in the A group': the change is graded after it
        for i in range(at + 1, min(end, at + 3)):
            if words[i] in GRADING_WORDS and not is_amount(words, i):
                return sign * SIGN_OF[words[i]]
    if words[at] not in GRADING_WORDS:
        return sign
    for i in (*range(at + 1, min(end, at + 4)), *range(at - 1, max(start, at - 7) - 1, -1)):
        if i < at and words[i] == ",":
            break  # 'a greater cough reduction, and more adverse events': another phrase
        if words[i] in CHANGE_WORDS and i not in named:
            return SIGN_OF[words[i]] * (1 if sign > 0 else -1)
    return sign


def _graded_change(words: Sequence[str], start: int, end: int) -> int | None:
    """The first comparative that grades a change word ('greater increase', 'more
    decrease'), from `start` to the end of the sentence."""
    for i in range(start, end - 1):
        if words[i] in GRADING_WORDS and (words[i + 1] in CHANGE_WORDS
                                          or words[i + 1] in VALENCE_CUES):
            return i
    return None


def _at_risk(words: Sequence[str], i: int) -> bool:
    """'women at an increased risk of breast cancer': who was studied, not a result."""
    return (i + 1 < len(words) and words[i + 1] in ("risk", "risks")
            and "at" in words[max(0, i - 2):i])


def _blinding(words: Sequence[str], i: int) -> bool:
    """'a double-blind trial' (split 'double', '-', 'blind'): the design, not a doubling."""
    j = i + 2 if i + 1 < len(words) and words[i + 1] == "-" else i + 1
    return (words[i] in ("double", "triple") and j < len(words)
            and words[j] in ("blind", "blinded", "masked", "dummy"))


def is_amount(words: Sequence[str], i: int) -> bool:
    """'more than 20%', 'less than 5 days', 'more than a decade', 'at least one', 'one or
    more complications': an amount, not a comparison of arms; 'least squares mean' names
    an estimate, 'the most common adverse event' ranks events, not arms."""
    if words[i] == "least" and ((i > 0 and words[i - 1] == "at") or (
            i + 1 < len(words) and words[i + 1] in ("squares", "square"))):
        return True
    if i > 1 and words[i - 1] == "or" and (words[i - 2] in COUNT_WORDS
                                           or words[i - 2].isdigit()):
        return True
    if (words[i] in ("most", "least") and i > 0 and words[i - 1] == "the"
            and i + 1 < len(words) and words[i + 1] in RANKED_WORDS):
        return True
    return (i + 2 < len(words) and words[i + 1] == "than"
            and (any(ch.isdigit() for ch in words[i + 2]) or words[i + 2] in AMOUNT_LEADS))


def _purpose(words: Sequence[str], i: int) -> bool:
    """'to lower the risk', 'aimed at reducing': an intention, not a result."""
    word = words[i]
    base = not word.endswith(("ed", "ing", "s", "tion", "er", "ion"))
    return i > 0 and ((words[i - 1] == "to" and base)
                      or (word.endswith("ing") and words[i - 1] in ("at", "for")))


def _negated(words: Sequence[str], start: int, cue_at: int, named: range) -> bool:
    """A negation before the cue; not one in the outcome's name ('success, without
    antibiotic change, more frequent with A')."""
    return any(words[i] in NEGATIONS and i not in named for i in range(start, cue_at))


def _nearest_span(spans: list[tuple[int, int]], tail: Mention) -> tuple[int, int] | None:
    return min(spans, key=lambda s: _distance(s[0], s[1], tail), default=None)


def _inside(i: int, spans: list[tuple[int, int]]) -> bool:
    return any(s <= i < e for s, e in spans)


def _arms(sentence: Sentence, start: int, end: int, heads: Sequence[Mention],
          comparators: Sequence[Mention]) -> list[tuple[int, int, str]]:
    """Arm mentions in the clause as (start, end, 'I'|'C'); generic group words
    ('placebo', 'control') stand in for an unnamed arm."""
    words = sentence.words
    candidates = [(m.start, m.end, "I") for m in heads if start <= m.start < end
                  and not (m.start > 1 and words[m.start - 1] in ("non", "-")
                           and words[m.start - 2] in ("non", "-"))]
    candidates += [(m.start, m.end, "C") for m in comparators if start <= m.start < end
                   and not _joined_to_head(words, m, heads)]
    arms: list[tuple[int, int, str]] = []
    for arm in sorted(candidates, key=lambda a: a[0] - a[1]):  # longest first
        if all(arm[1] <= s or arm[0] >= e for s, e, _ in arms):
            arms.append(arm)
    taken = {i for s, e, _ in arms for i in range(s, e)}
    head_starts = {s for s, _, role in arms if role == "I"}
    for i in range(start, end):
        if i in taken:
            continue
        # 'patients given standard PN': a group word right before the intervention's
        # mention is part of its name
        if words[i] in CONTROL_WORDS and i + 1 not in head_starts and not (
                words[i] == "control" and i > 0 and words[i - 1] in CONTROLLED_WORDS):
            arms.append((i, i + 1, "C"))
        elif words[i] in TREATED_WORDS and i + 1 < end and words[i + 1] in (
                "group", "groups", "arm", "patients"):
            arms.append((i, i + 1, "I"))
    return sorted(arms)


def _joined_to_head(words: Sequence[str], comparator: Mention,
                    heads: Sequence[Mention]) -> bool:
    """'5% KNO3 and diode laser', 'usual care plus exercise': the comparator named as the
    base of a combination is part of the intervention arm, not the other arm."""
    joint = comparator.end
    if joint >= len(words) or words[joint] not in COMBINATION_JOINERS:
        return False
    return any(h.start == joint + 1 and not (h.end < len(words) and words[h.end] in (
        "groups", "arms")) for h in heads)


def _comparator_is_subject(sentence: Sentence, start: int, end: int, cue_at: int,
                           heads: Sequence[Mention], comparators: Sequence[Mention]) -> bool:
    """Which arm has more/less of the tail. 'than C' / 'compared with C' marks C as the
    reference; else the arm right after the cue ('higher in the placebo group'), else the
    first arm before it (the grammatical subject usually leads)."""
    arms = _arms(sentence, start, end, heads, comparators)
    if not arms:
        return False
    words = sentence.words
    opening = _opening_reference(sentence, arms, cue_at)
    if opening is not None:
        return opening == "I"
    inside = _inside_parentheses(words, start, end)
    for marker_start, marker_end in sentence.compares:
        if marker_start > 0 and is_amount(words, marker_start - 1):
            continue  # 'more than doubled with A': an amount, no reference
        if start <= marker_start < end and not (marker_start in inside
                                                and cue_at not in inside):
            # ('placebo 1.1 vs. X 9.5') in parentheses lists values, it names no reference;
            # the reference's mention may take in the marker's words ('in comparison to
            # the waitlist')
            following = [a for a in arms if marker_start <= a[0] < marker_end + REFERENCE_WINDOW
                         and a[1] > marker_end]
            if following:
                return following[0][2] == "I"
    change = _from_to(words, cue_at, min(end, cue_at + 3), end)
    if change is not None:
        # 'reduced from 42.5 in the placebo group to 24.8 in the X group': the arm after
        # 'to' is where the change ended, the one after 'from' where it began
        origin, target = change
        ended = [a for a in arms if target < a[0] <= target + SUBJECT_WINDOW]
        began = [a for a in arms if origin < a[0] < target]
        if ended:
            return ended[0][2] == "C"
        if began:
            return began[0][2] == "I"
    for arm_start, _, role in arms:
        if cue_at < arm_start <= cue_at + SUBJECT_WINDOW and any(
                words[j] in ARM_PREPOSITIONS for j in range(max(cue_at, arm_start - 3),
                                                            arm_start)):
            if words[arm_start - 1] == "from":
                return role == "I"  # 'a reduction from baseline': the arm it began at
            return role == "C"
    before = [a for a in arms if a[1] <= cue_at]
    return bool(before) and before[0][2] == "C"


def _opening_reference(sentence: Sentence, arms: list[tuple[int, int, str]],
                       cue_at: int) -> str | None:
    """'Compared to lenses worn by subjects in group I, lenses worn by group II subjects
    showed more ...': a sentence that opens on a comparison names its reference in the
    phrase up to the first comma, however far into it the arm sits. The role of that arm,
    or None when the sentence does not open so (or an arm comes before the phrase)."""
    words = sentence.words
    for marker_start, marker_end in sentence.compares:
        lead = [w for w in words[sentence.start:marker_start] if w not in OPENING_LEADS]
        if len(lead) > 1 or (lead and not lead[0].isalpha()) or OPENING_MARKERS.isdisjoint(
                words[marker_start:marker_end]):
            continue
        comma = next((j for j in range(marker_end, min(cue_at, marker_end + OPENING_REACH))
                      if words[j] == ","), None)
        named = [a for a in arms if marker_end <= a[0] < comma] if comma is not None else []
        if named and all(a[0] >= marker_start for a in arms):
            return named[0][2]
    return None


def _from_to(words: Sequence[str], after: int, before: int,
             end: int) -> tuple[int, int] | None:
    """Positions of a 'from' between `after` and `before` and of the 'to' that follows it."""
    origin = next((j for j in range(after + 1, before) if words[j] == "from"), None)
    if origin is None:
        return None
    target = next((j for j in range(origin + 1, min(end, origin + SUBJECT_WINDOW * 2))
                   if words[j] == "to"), None)
    return (origin, target) if target is not None else None


def _values_moved(words: Sequence[str], after: int, before: int, end: int) -> int | None:
    """+1 / -1 when 'from A ... to B' follows `after` (its 'from' before `before`) with a
    number right after each, None otherwise."""
    change = _from_to(words, after, before, end)
    if change is None:
        return None
    origin, target = change
    if target + 1 >= end or not (_NUMBER.match(words[origin + 1])
                                 and _NUMBER.match(words[target + 1])):
        return None
    a, b = _value_of(words[origin + 1]), _value_of(words[target + 1])
    return None if a == b else (1 if b > a else -1)


def _numeric_direction(sentence: Sentence, start: int, end: int, tail: Mention,
                       heads: Sequence[Mention], comparators: Sequence[Mention]) -> int | None:
    """'4 for bolus therapy and 3 for CI therapy': the value written just before each
    arm's mention; +1 when the head's arm has the larger value."""
    arms = _arms(sentence, start, end, heads, comparators)
    if "respectively" in sentence.words[start:end]:
        listed = _listed_values(sentence.words, start, end, arms, range(tail.start, tail.end))
        if listed is not None:
            return listed or None
    values: dict[str, float] = {}
    previous_end = start
    for arm_start, arm_end, role in arms:
        value = _value_stated_after(sentence.words, arm_end, end)
        if value is None:
            value = _value_in_parentheses(sentence.words, arm_end, end)
        if value is None:
            value = _value_before(sentence.words,
                                  max(previous_end, arm_start - NUMBER_LOOKBACK), arm_start)
        previous_end = arm_end
        if value is not None:
            values.setdefault(role, value)
    if len(values) < 2 or values["I"] == values["C"]:
        return None
    return 1 if values["I"] > values["C"] else -1


def _summed_up_values(sentence: Sentence, start: int, cue_at: int, tail: Mention,
                      heads: Sequence[Mention], comparators: Sequence[Mention]) -> int | None:
    """'256 (12%) in the placebo group died compared with 182 (8%) in the simvastatin
    group, a risk reduction of 30%': a change after both arms and a comma sums up their
    values, whichever arm is named first; the values give the direction (None when the
    cue is not such a summary or the values give none)."""
    arms = _arms(sentence, start, cue_at, heads, comparators)
    if {role for _, _, role in arms} != {"I", "C"} or "," not in sentence.words[
            max(arm_end for _, arm_end, _ in arms):cue_at]:
        return None
    return _numeric_direction(sentence, start, cue_at, tail, heads, comparators)


def _listed_values(words: Sequence[str], start: int, end: int,
                   arms: list[tuple[int, int, str]], named: range) -> int | None:
    """'the rate in placebo, and both groups of A and B were 50%, 21%, and 11%,
    respectively': the values listed apart from the arms go to them in order; 0 (no
    direction) when they are not one per arm, rather than a guess from proximity. None
    when arms and values alternate ('4 for A and 3 for B, respectively')."""
    taken = {i for a in arms for i in range(a[0], a[1])}.union(named)
    depth = 0
    listed = []
    for i in range(start, end):
        depth += (words[i] in ("(", "[")) - (words[i] in (")", "]"))
        if (depth == 0 and i not in taken and _NUMBER.match(words[i])
                and not (i > 0 and words[i - 1] in SPREAD_MARKERS)):
            listed.append(i)
    # arms in parentheses label the values ('the hazard ratios (A vs. B) for X and Y were
    # 1.32 and 1.27, respectively'), they do not list them
    if not arms or not listed or _inside_parentheses(words, start, end) & taken.difference(
            named):
        return None
    if not (listed[-1] < arms[0][0] or listed[0] >= arms[-1][1]):
        return None
    if len(listed) != len(arms):
        return 0
    values: dict[str, float] = {}
    for (_, _, role), i in zip(arms, listed, strict=True):
        values.setdefault(role, _value_of(words[i]))
    if len(values) < 2 or values["I"] == values["C"]:
        return 0
    return 1 if values["I"] > values["C"] else -1


def _value_stated_after(words: Sequence[str], arm_end: int, end: int) -> float | None:
    """'in the A group was 90% and in the B group, it was 60%': a copula right after the
    arm, then the arm's value."""
    for i in range(arm_end, min(end - 1, arm_end + COPULA_LOOKAHEAD)):
        if words[i] in ("was", "were", "is", "are"):
            following = words[i + 1]
            return _value_of(following) if _NUMBER.match(following) else None
    return None


def _value_in_parentheses(words: Sequence[str], arm_end: int, end: int) -> float | None:
    """'the control group (13/39, 33%)': the arm's value in parentheses right after it,
    its percentage if given, else its count over its total, else its one number; nothing
    when the parentheses hold more ('12 vs. 16 hours', 'n = 41', an interval)."""
    i = arm_end + 1 if arm_end < end and words[arm_end] in ARM_NOUNS else arm_end
    if i >= end or words[i] != "(":
        return None
    close = next((j for j in range(i + 1, end) if words[j] == ")"), None)
    if close is None:
        return None
    parts = " ".join(words[i + 1:close]).replace(" %", "%").split(" , ")
    if not 0 < len(parts) <= 2 or not all(_NUMBER.match(p) or _FRACTION.match(p)
                                          for p in parts):
        return None
    percent = next((p for p in parts if p.endswith("%")), None)
    if percent is not None:
        return _value_of(percent)
    fraction = next(filter(None, map(_FRACTION.match, parts)), None)
    if fraction is not None:
        return 100 * int(fraction[1]) / max(1, int(fraction[2]))
    return _value_of(parts[0]) if len(parts) == 1 else None


def _value_before(words: Sequence[str], start: int, end: int) -> float | None:
    """The nearest number before `end`, preferring one outside parentheses and skipping
    spreads ('± 10.6') and range ends ('8 to 12.3')."""
    inside: float | None = None
    depth = 0
    for i in range(end - 1, start - 1, -1):
        word = words[i]
        if word in (")", "]"):
            depth += 1
        elif word in ("(", "["):
            depth = max(0, depth - 1)
        elif _NUMBER.match(word) and not (i > 0 and words[i - 1] in SPREAD_MARKERS):
            value = _share_of(words, start, i)
            if depth == 0:
                return value
            if inside is None:
                inside = value
    return inside


def _share_of(words: Sequence[str], start: int, i: int) -> float:
    """The number at `i`, or the count before it over it when it is a whole ('15 of
    3552', 'one case out of 3632 deliveries'): arms of different sizes compare by rate."""
    whole = _value_of(words[i])
    of = i - 1
    if of <= start or words[of] != "of" or whole == 0:
        return whole
    before = of - 1 if words[of - 1] == "out" else of
    if words[before - 1] == ")":
        # 'eight (53%) of 15': the count's own percentage stands between it and 'of'
        opening = next((j for j in range(before - 2, max(start, before - SHARE_LOOKBACK - 2),
                                         -1) if words[j] == "("), None)
        before = opening if opening is not None else before
    for k in range(before - 1, max(start, before - SHARE_LOOKBACK) - 1, -1):
        if words[k] in ("total", "number", "(", ")", ","):
            break
        if words[k] == "none":
            return 0.0  # 'compared with none of 16 in the placebo group'
        if words[k] in COUNT_VALUES:
            return COUNT_VALUES[words[k]] / whole
        if _NUMBER.match(words[k]) and not words[k].endswith("%"):
            return _value_of(words[k]) / whole
    return whole


def _value_of(word: str) -> float:
    """A number token's value ('12.5%', '3,2')."""
    return float(word.rstrip("%").replace(",", "."))


def _modifier_sign(words: Sequence[str], heads: Sequence[Mention], start: int,
                   cue_at: int) -> int:
    """'Higher M was associated with lower Y': the head's own comparative multiplies."""
    if not any(words[i] in ASSOCIATION_WORDS for i in range(start, cue_at)):
        return 1
    for head in heads:
        if head.start >= cue_at:
            continue
        for i in range(max(start, head.start - 2), head.start):
            if words[i] in MORE_WORDS:
                return 1
            if words[i] in LESS_WORDS:
                return -1
    return 1

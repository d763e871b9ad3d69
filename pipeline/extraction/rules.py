"""Reading one sentence: the direction of head -> tail, relative to the comparator arm.

Order of decisions (each documented in docs/extraction.md): aims and definitions are not
findings; the clause that holds the tail is read; a null phrase or a negated cue gives 0;
so does a measure or arm set apart by 'but not' (the comparator too, when it is set apart
from the reference a comparison names), or the head likened to the comparator;
otherwise the direction cue nearest the tail gives the sign, flipped when the comparator
is the subject ("lower in the placebo group" = higher with the intervention); a
non-significant p or an interval crossing the null turns a direction into 0.

The words the rules look for are in `lexicon.py`; this module holds the decisions, and
the modules it calls find what they decide on, each with the token windows it looks in:
the clause (`clauses.py`), the direction cue (`cues.py`), the arms and which is the
subject (`arms.py`), the arms' own numbers (`values.py`) and whether a null or a direction
is said of the arms compared (`nulls.py`). The sentence they read is `sentence.py`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pipeline.extraction.arms import (
    arms_in,
    both_arms_before,
    comparator_is_subject,
    estimate_orientation,
    lists_outcomes,
)
from pipeline.extraction.clauses import asides, clause, contrast_end, next_break
from pipeline.extraction.cues import (
    compound_sign,
    counted_by_a_fall,
    degree_before_tail,
    distance_to,
    graded_change,
    modifier_sign,
    nearest_cue,
)
from pipeline.extraction.lexicon import (
    COPULAS,
    EFFICACY_WORDS,
    FINDING_VERBS,
    LESS_WORDS,
    LIKENESS_WORDS,
    MORE_WORDS,
    NEGATIONS,
    PACE_CUES,
    PACE_WORDS,
    SIGN_OF,
    SIGNIFICANT_WORDS,
    VALENCE_CUES,
    WEAK_CUES,
)
from pipeline.extraction.mentions import WHOLE_FUZZY_SCORE, Mention
from pipeline.extraction.nulls import (
    between_arms,
    conjoined_apart,
    difference_between_arms,
    judged_no_better,
    likened_to_another,
    likened_to_comparator,
    null_follow_up,
    reference_set_apart,
    set_apart,
    without_another,
)
from pipeline.extraction.sentence import Sentence
from pipeline.extraction.stats import Significance, Statistic, nearest_significance
from pipeline.extraction.timepoints import shares_a_time, time_positions
from pipeline.extraction.values import (
    changed_by_amounts,
    numeric_direction,
    pair_direction,
    summed_up_values,
    unnamed_arms_direction,
    values_moved,
    versus_positions,
)

FROM_LOOKAHEAD = 6  # tokens after the outcome where its 'from A to B' may begin
NUMBERS_CUE = "<numbers>"  # the cue of a reading from the arms' values
TIME_PREPOSITIONS = frozenset({"at", "after", "by", "in", "on", "until", "to"})
NEGATION_WINDOW = 3  # tokens before a cue in which a negation negates it
BASELINE_REFERENCE_REACH = 4  # tokens after 'compared to' naming the state before treatment
BASELINE_REFERENCES = frozenset({"baseline", "before", "pretreatment", "pre-treatment",
                                 "preintervention", "pre-intervention"})
TREND_REACH = 4  # tokens before a cue in which 'trend towards' / 'tended to' leads it
TREND_WORDS = frozenset({"trend", "trends", "trended", "trending", "tended", "tendency"})
# 'free of pain attributable to PHN': words saying what the outcome causes, and the tokens
# from 'free of' to the outcome in which they stand
CAUSED_BY = frozenset({"attributable", "due", "related", "caused"})
CAUSED_REACH = 7
RELIEF_WORDS = frozenset({"free", "freedom", "relief"})  # of or from the outcome
NOT_FOUND_REACH = 6  # tokens before 'to be' in which 'not found' / 'not shown' may stand


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
         when: frozenset[float] = frozenset(), arm_order: int = 0) -> Reading | None:
    """The head -> tail polarity this sentence states about the tail mention, or None when
    it states none (an aim, no cue, or a significant result without a direction).
    `adverse_tail` says the tail is something patients want less of (pain, mortality), so
    that 'improved' reads as a decrease; `timed_tail` that it is a time ('time to
    recovery'), so that 'recovered earlier' reads as a decrease; `reduction_tail` that it
    is named as a fall ('reduction in pain'), so that a sentence on the pain itself reads
    the other way; `when` the time points the outcome names (days), so that a sentence
    that says different things at different times is read at the outcome's; `arm_order`
    which arm the abstract introduced first (+1 the intervention, -1 the comparator, 0
    unknown), whose value comes first where a sentence names neither. Arms alike at
    baseline is not a null finding: it says how the arms began."""
    reading = _read(sentence, tail, heads, comparators, adverse_tail, timed_tail, arm_order)
    paired = _pair_at_time(when, sentence, tail, heads, comparators, arm_order)
    if paired is not None:
        reading = paired
    elif reading is not None and when:
        reading = _read_at(when, sentence, tail, heads, comparators, adverse_tail,
                           timed_tail) or reading
        if reading.polarity and _gone_when_asked(when, sentence):
            # the next sentence says the difference was gone at the time asked
            reading = Reading(0, _bounded(0.5 - 0.15 * sentence.hedged),
                              Significance.NOT_SIGNIFICANT, hedged=sentence.hedged,
                              null_phrase=True)
    if reading is not None and reading.polarity and (
            set_apart(sentence.words, tail)
            or (heads and set_apart(sentence.words, max(heads, key=lambda m: m.score)))
            or any(reference_set_apart(sentence, m) for m in comparators)
            or likened_to_comparator(sentence, comparators)):
        reading = Reading(0, _bounded(0.5 - 0.15 * sentence.hedged), reading.significance,
                          hedged=sentence.hedged, null_phrase=True)
    if reading is not None and reading.polarity == 0 and sentence.at_baseline:
        return None
    if reading is not None and reduction_tail and not any(
            sentence.words[i] in SIGN_OF for i in range(tail.start, tail.end)):
        # 'reduction in pain' matched as 'pain': less pain is more reduction
        reading = replace(reading, polarity=-reading.polarity)
    if reading is not None and not timed_tail and _below_a_target(sentence.words, tail):
        # 'more patients reached an HbA1c below 7%': more of them is less of the outcome
        # (not 'the time to return to SI <0.98', which runs as written)
        return replace(reading, polarity=-reading.polarity)
    if reading is not None and not reduction_tail and reading.cue in (
            "", NUMBERS_CUE) and counted_by_a_fall(sentence, tail, adverse_tail):
        return replace(reading, polarity=-reading.polarity)
    if (reading is not None and tail.score >= WHOLE_FUZZY_SCORE
            and _free_of(sentence.words, tail)):
        # 'more patients were pain-free', 'relapse-free survival was longer': the
        # sentence counts the outcome's absence, so more of that is less of the outcome
        return replace(reading, polarity=-reading.polarity)
    return reading


def _below_a_target(words: Sequence[str], tail: Mention) -> bool:
    """Whether the outcome is named with a target under a value ('an HbA1c below 7%',
    'LDL cholesterol < 70 mg/dL'): a count of patients who reached it."""
    at = tail.end
    if at < len(words) and words[at] in ("below", "under", "<"):
        at += 1
    elif words[at:at + 2] == ["less", "than"]:
        at += 2
    else:
        return False
    return at < len(words) and any(ch.isdigit() for ch in words[at])


def _slower(words: Sequence[str], cue_at: int, end: int, tail: Mention) -> bool:
    """Whether a change is said to go more slowly ('gained weight more slowly', 'rose
    slower'): right after its cue, or after the outcome that follows it."""
    after = tail.end if cue_at < tail.start <= cue_at + 1 else cue_at + 1
    pair = tuple(words[after:min(end, after + 2)])
    return pair[:1] == ("slower",) or pair == ("more", "slowly")


def _gone_when_asked(when: frozenset[float], sentence: Sentence) -> bool:
    """Whether the next sentence says this finding's difference was gone at a time the
    outcome names, and this one names none of those times."""
    return (shares_a_time(when, sentence.gone_at)
            and not _times_asked(sentence.words, sentence.start, sentence.end, when))


def _times_asked(words: Sequence[str], start: int, end: int,
                 when: frozenset[float]) -> list[int]:
    """The tokens from `start` to `end` that name one of the outcome's time points."""
    return [i for i, days in time_positions(words, start, end)
            if shares_a_time((days,), when)]


def _free_of(words: Sequence[str], tail: Mention) -> bool:
    """Whether the outcome is named as what patients are free of, relieved of or without:
    'pain-free', 'pain free at 2 hours', 'free of vomiting', 'relief of hypersensitivity',
    'with no nausea', 'survival without BPD',
    'pain relief' (not an outcome whose own name says so: its mention matched 'free' or
    'relief'), or 'free of pain attributable to PHN'. Only for a mention of
    every word of the outcome: 'ventilator-free days' is not the absence of
    ventilator-associated pneumonia."""
    matched = set(tail.tokens)
    for i in matched:
        free = next((j for j in (i + 1, i + 2) if j < len(words) and words[j] == "free"
                     and (j == i + 1 or words[i + 1] == "-")), None)
        if free is not None and free not in matched:
            return True
    first = min(matched)
    if first >= 2 and words[first - 2] in RELIEF_WORDS and words[first - 1] in ("of", "from"):
        return True  # 'free of vomiting', 'greater relief of dentine hypersensitivity'
    if first >= 2 and words[first - 2:first] == ["with", "no"] or (
            first >= 1 and words[first - 1] == "without"):
        return True  # 'the proportion of patients with no nausea', 'survival without BPD'
    last = max(matched)
    if last + 1 < len(words) and words[last + 1] == "relief" and last + 1 not in matched:
        return True  # 'pain relief' for 'pain'
    # 'free of pain attributable to PHN': free of what the outcome causes
    return any(words[j] == "free" and words[j + 1] in ("of", "from")
               and not CAUSED_BY.isdisjoint(words[j + 2:first])
               for j in range(max(0, first - CAUSED_REACH), first - 3))


def _against_baseline(words: Sequence[str], after: int, end: int) -> bool:
    """'improved in both arms compared to the score before intervention': a comparison
    with the arms' own state before treatment, not with the other arm; not one that goes
    on to another reference ('in comparison to baseline (28.4) and the placebo period')."""
    at = next((i for i in range(after, min(end, after + BASELINE_REFERENCE_REACH))
               if words[i] in BASELINE_REFERENCES), None)
    if at is None:
        return False
    following = at + 1
    if following < end and words[following] == "(":
        following = next((i + 1 for i in range(following, end) if words[i] == ")"), end)
    return following >= end or words[following] not in ("and", "or")


def _read(sentence: Sentence, tail: Mention, heads: Sequence[Mention],
          comparators: Sequence[Mention], adverse_tail: bool,
          timed_tail: bool, arm_order: int = 0) -> Reading | None:
    if sentence.is_aim or sentence.relates_measures:
        return None
    start, end = clause(sentence, tail)
    words = sentence.words
    arm_tokens = {i for m in (*heads, *comparators) for i in m.tokens}
    head_tokens = {i for m in heads for i in m.tokens}
    set_aside = asides(words, start, end, tail)
    # the words inside the outcome's mention are its name ('the pain increase in the
    # neck was lower'), not what the sentence says happened to it
    cue_at, sign = nearest_cue(words, start, end, tail,
                               arm_tokens | set(range(tail.start, tail.end)) | set_aside)
    if cue_at is None:
        cue_at, sign = degree_before_tail(sentence, start, end, tail)
    if cue_at is None and not _null_in_clause(sentence, start, end, tail):
        # the outcome's own wording may carry the direction ('better global
        # improvement', 'more likely to define the steps'): the sentence says it happened,
        # unless the arms' own values say which way ('the proportion needing additional
        # treatment was 3.1% after A and 7.2% after B') or the clause states a null ('did
        # not differ on Clinical Global Impressions-Improvement scores'), or an estimate
        # does ('the risk ratio of viral suppression was 1.21 (95% CI 1.04-1.38)')
        cue_at, sign = nearest_cue(words, start, end, tail, arm_tokens | set_aside)
        if cue_at is not None and (
                numeric_direction(sentence, start, end, tail, heads, comparators) is not None
                or _significant_estimate_in(sentence, start, end)):
            cue_at = None
    negated = cue_at is not None and (
        _negated(words, max(start, cue_at - NEGATION_WINDOW), cue_at,
                 range(tail.start, tail.end))
        or _not_found_to_be(words, start, cue_at) or judged_no_better(words, start, cue_at))
    null_spans = [span for span in (
        # a null inside the outcome's name, matched as written, is part of it ('success,
        # without antibiotic change')
        # ('morphine-equivalent consumption': the second half of a compound, too)
        _nearest_span([s for s in sentence.nulls if start <= s[0] < end
                       and not ((tail.exact or words[s[0] - 1] == "-")
                                and tail.start <= s[0] < tail.end)
                       and not likened_to_another(words, s, start, end, arm_tokens,
                                                  head_tokens)], tail),
        null_follow_up(sentence, start, end, arm_tokens, head_tokens)) if span is not None]
    said_within = any(start <= s[0] < end and not lists_outcomes(words, s[1], tail)
                      for s in sentence.within) and not any(
        start <= s[0] < end and not _against_baseline(words, s[1], end)
        for s in sentence.compares)
    within = said_within or both_arms_before(words, start, cue_at, heads, comparators)
    offset = sentence.offset(tail.start)
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
        cue_distance = distance_to(cue_at, cue_at + 1, tail)
        null_spans = [span for span in null_spans if not (
            distance_to(*span, tail) > cue_distance and not negated and (
                significance is Significance.SIGNIFICANT
                or conjoined_apart(words, span[1], min(cue_at, tail.start))
                or without_another(words, span, cue_at, tail)) and not (
                span[0] > cue_at and (between_arms(words, span[1], sentence.end,
                                                   arm_tokens, head_tokens)
                                      or difference_between_arms(words, span[0], cue_at))))]
    null_span = null_spans[0] if null_spans else None
    graded = graded_change(words, start, sentence.end) if within else None
    if graded is not None and not negated:
        # 'increased in both groups, with a greater increase in the X group': the
        # comparison of the changes is the between-arm finding
        polarity = compound_sign(words, start, sentence.end, graded) * (
            -1 if comparator_is_subject(sentence, graded, sentence.end, graded, heads,
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
                                        offset)
        if estimate is not None:
            return Reading(_direction_of(estimate, timed_tail, sentence, heads, comparators),
                           _bounded(0.5 - 0.15 * hedged),
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
        stop = contrast_end(words, end, sentence.end)
        numeric = numeric_direction(sentence, start, stop, tail, heads, comparators)
        if numeric is None and not arms_in(sentence, start, stop, heads, comparators):
            numeric = unnamed_arms_direction(words, start, stop, arm_order)
        if numeric is not None and significance is Significance.SIGNIFICANT:
            return Reading(numeric, _bounded(0.6 - 0.15 * hedged), significance, NUMBERS_CUE)
        if stat is not None and stat.significance is Significance.NOT_SIGNIFICANT:
            return Reading(0, _bounded(0.5 - 0.15 * hedged), significance, hedged=hedged)
        # an estimate whose interval excludes the null gives its own direction, even when
        # a bare p-value sits nearer the outcome ('IRR 0.07 (95% CI 0.01-0.57, p=0.013)')
        estimate = nearest_significance([s for s in sentence.stats if s.direction], offset)
        if estimate is not None:
            return Reading(_direction_of(estimate, timed_tail, sentence, heads, comparators),
                           _bounded(0.55 - 0.15 * hedged), Significance.SIGNIFICANT,
                           hedged=hedged)
        return None
    cue = words[cue_at]
    summed_up = summed_up_values(sentence, start, cue_at, tail, heads, comparators)
    unflipped = sign * modifier_sign(words, heads, start, cue_at)
    by_amounts = changed_by_amounts(sentence, cue_at, end, tail, heads, comparators)
    if by_amounts is not None:
        # the change in both arms: more of it in the head's arm is the change's way
        unflipped *= by_amounts
    if not timed_tail and _slower(words, cue_at, end, tail):
        # 'gained weight more slowly than': less of the change
        unflipped = -unflipped
    # 'more effective than usual care': a comparative of efficacy says better, as
    # 'improved' does, whichever way the outcome is named
    valence = cue in VALENCE_CUES or cue in ("more", "less") and (
        cue_at + 1 < end and words[cue_at + 1] in EFFICACY_WORDS)
    flipped = summed_up is None and by_amounts is None and comparator_is_subject(
        sentence, start, end, cue_at, heads, comparators) and not _estimate_says(
        sentence, cue_at, unflipped if not valence else 0, heads, comparators)
    polarity = unflipped * (-1 if flipped else 1)
    # 'recovered earlier', 'more rapid recovery': a faster pace is a shorter time
    if adverse_tail and valence or timed_tail and (
            cue in PACE_CUES or cue_at + 1 < end and words[cue_at + 1] in PACE_WORDS):
        polarity = -polarity
    if valence:
        # 'improved the RDI from 22.2 to 16.5 events per hour': the numbers say which way
        # the outcome went, whatever it is named
        moved = values_moved(words, cue_at, min(end, tail.end + FROM_LOOKAHEAD), end)
        if moved is not None:
            polarity = moved * (-1 if flipped else 1)
    if summed_up is not None:
        polarity = summed_up
    if significance is Significance.NOT_SIGNIFICANT and not said_significant:
        return Reading(0, _bounded(0.5 - 0.15 * hedged), significance, cue, flipped, hedged)
    if significance is not Significance.SIGNIFICANT and not said_significant and any(
            words[i] in TREND_WORDS for i in range(max(start, cue_at - TREND_REACH), cue_at)):
        # 'a trend towards an increase in IgM', 'tended to be higher': a change that did
        # not reach significance, which trial reports (and reviews) count as no difference
        return Reading(0, _bounded(0.45 - 0.15 * hedged), significance, cue, flipped, hedged)
    confidence = 0.5
    confidence += 0.2 * (significance is Significance.SIGNIFICANT or said_significant)
    confidence += 0.1 * (cue not in WEAK_CUES)
    confidence += 0.1 * tail.exact
    confidence += 0.05 * bool(heads)
    confidence -= 0.2 * hedged
    return Reading(polarity, _bounded(confidence), significance, cue, flipped, hedged)


def _direction_of(estimate: Statistic, timed_tail: bool, sentence: Sentence,
                  heads: Sequence[Mention], comparators: Sequence[Mention]) -> int:
    """An estimate's direction, turned round when labelled comparator first and for the
    hazard of a time's event ('time to healing': a hazard of 1.60 is a shorter time)."""
    direction = estimate.direction * estimate_orientation(sentence, estimate, heads, comparators)
    return -direction if timed_tail and estimate.hazard else direction


def _significant_estimate_in(sentence: Sentence, start: int, end: int) -> bool:
    """Whether the clause gives a ratio (RR, OR, HR) whose interval excludes 1; not a
    difference or coefficient, whose sign depends on how the scale is scored ('significant
    improvement (B = -6.72, 95% CI -8.15 to -5.28)')."""
    return any(s.ratio and s.direction and s.significance is Significance.SIGNIFICANT
               for s in _clause_stats(sentence, start, end))


def _null_in_clause(sentence: Sentence, start: int, end: int, tail: Mention) -> bool:
    """Whether the clause states a null outside the outcome's own name and gives no
    significant statistic of its own ('did not differ on CGI-Improvement scores;
    compared with MED, ... (p = .01)': the p-value is the next clause's)."""
    if not any(start <= s[0] < end and not tail.start <= s[0] < tail.end
               for s in sentence.nulls):
        return False
    return not any(st.significance is Significance.SIGNIFICANT
                   for st in _clause_stats(sentence, start, end))


def _clause_stats(sentence: Sentence, start: int, end: int) -> list[Statistic]:
    """The statistics placed within the clause of tokens start..end."""
    first, last = sentence.offset(start), sentence.offset(end)
    return [st for st in sentence.stats if first <= st.offset < last]


def _estimate_says(sentence: Sentence, cue_at: int, polarity: int,
                   heads: Sequence[Mention], comparators: Sequence[Mention]) -> bool:
    """Whether the first significant ratio after the cue (an interval clear of 1) goes the
    way of `polarity`: a ratio compares the intervention with the comparator whichever arm
    the words name first ('32 of those given placebo, with a 65% relative reduction
    (hazard ratio 0.35; 0.18 to 0.70)'), unless its label names the comparator first
    (arms.estimate_orientation), so it overrules taking the comparator for the subject.
    Not when a ratio follows the comparator's name before the cue: that one is
    the comparator's own ('associated with placebo treatment (OR 1.28, ...), excess
    respiratory rate (OR 1.51, ...)'); nor for a difference, often given as comparator
    minus intervention ('risk difference 4.2% in favour of antibiotic')."""
    if polarity == 0:
        return False
    at = sentence.offset(cue_at)
    named = [sentence.offset(m.start) for m in comparators if m.start < cue_at]
    ratios = [s for s in sentence.stats if s.ratio]
    if named and any(max(named) < s.offset < at for s in ratios):
        return False
    after = [s for s in ratios if s.direction and s.offset > at]
    return bool(after) and after[0].direction * estimate_orientation(
        sentence, after[0], heads, comparators) == polarity


def _read_at(when: frozenset[float], sentence: Sentence, tail: Mention,
             heads: Sequence[Mention], comparators: Sequence[Mention], adverse_tail: bool,
             timed_tail: bool) -> Reading | None:
    """'lower at 1 min, but no difference at 5 min' asked at 5 min: the clause naming the
    outcome's time point, when the tail's clause does not; 'higher at 4 weeks (but not at
    4 months)' asked at 4 months: a null. None when the tail's own reading stands."""
    words = sentence.words
    start, end = clause(sentence, tail)
    named = _times_asked(words, sentence.start, sentence.end, when)
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


def _pair_at_time(when: frozenset[float], sentence: Sentence, tail: Mention,
                  heads: Sequence[Mention], comparators: Sequence[Mention],
                  arm_order: int) -> Reading | None:
    """'reported by 19% vs 28% at 3 months (p=0.03) and by 9% vs 11% at one year
    (p=0.50)' asked at one year: of a clause's pairs of unnamed arms' values, the pair
    the outcome's time point follows, with the statistic between that time point and the
    next pair. None for a clause with fewer than two pairs, or with arms named."""
    if not when:
        return None
    words = sentence.words
    start, end = clause(sentence, tail)
    versus = versus_positions(words, start, end)
    if len(versus) < 2 or arms_in(sentence, start, end, heads, comparators):
        return None
    named = _times_asked(words, start, end, when)
    before = [v for v in versus if named and v < named[0]]
    if not before:
        return None
    stop = next((v for v in versus if v > named[0]), end)
    stat = next((st for st in sentence.stats
                 if sentence.offset(named[0]) <= st.offset < sentence.offset(stop)), None)
    hedged = sentence.hedged
    if stat is None or stat.significance is Significance.NOT_REPORTED:
        return None
    if stat.significance is Significance.NOT_SIGNIFICANT:
        return Reading(0, _bounded(0.5 - 0.15 * hedged), stat.significance, hedged=hedged)
    direction = pair_direction(words, start, before[-1], stop, arm_order)
    return None if direction is None else Reading(
        direction, _bounded(0.6 - 0.15 * hedged), stat.significance, NUMBERS_CUE)


def _bounded(value: float) -> float:
    return min(0.95, max(0.05, round(value, 3)))


def _compared_after(sentence: Sentence, end: int, heads: Sequence[Mention],
                    comparators: Sequence[Mention]) -> tuple[int, int] | None:
    """'rose in both groups but was lower with A than with B': after a change within
    every arm, a clause with no subject of its own that compares the arms is the
    between-arm finding; (polarity, the comparative's token) or None."""
    words = sentence.words
    if end >= sentence.end or words[end] != "but":
        return None
    stop = next_break(words, end + 1, sentence.end)
    cue = end + 1
    while cue < stop and (words[cue] in COPULAS or words[cue] in SIGNIFICANT_WORDS):
        cue += 1
    if cue in (end + 1, stop) or (words[cue] not in MORE_WORDS and words[cue] not in LESS_WORDS):
        return None
    if not arms_in(sentence, cue, stop, heads, comparators):
        return None
    flipped = comparator_is_subject(sentence, cue, stop, cue, heads, comparators)
    return SIGN_OF[words[cue]] * (-1 if flipped else 1), cue


def _negated(words: Sequence[str], start: int, cue_at: int, named: range) -> bool:
    """A negation before the cue; not one in the outcome's name ('success, without
    antibiotic change, more frequent with A')."""
    return any(words[i] in NEGATIONS and i not in named for i in range(start, cue_at))


def _not_found_to_be(words: Sequence[str], start: int, cue_at: int) -> bool:
    """'was not found by statistical analysis to be significantly superior': the cue after
    'to be' (an adverb between them at most), negated by 'not' and a verb of finding
    farther back than the plain negation window reaches."""
    be = cue_at - 1 if words[cue_at - 1] == "be" else cue_at - 2
    if be - 1 < start or words[be] != "be" or words[be - 1] != "to":
        return False
    return any(words[i] == "not" and words[i + 1] in FINDING_VERBS
               for i in range(max(start, be - 1 - NOT_FOUND_REACH), be - 2))


def _nearest_span(spans: list[tuple[int, int]], tail: Mention) -> tuple[int, int] | None:
    return min(spans, key=lambda s: distance_to(s[0], s[1], tail), default=None)


def _inside(i: int, spans: list[tuple[int, int]]) -> bool:
    return any(s <= i < e for s, e in spans)

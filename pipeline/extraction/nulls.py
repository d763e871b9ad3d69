"""Whether a null phrase, or a direction, is said of the two arms compared: a null in the
next clause that refers back to the finding; one said between the arms, not between the
comparator and a third arm; one cut off from the cue by a second predicate ('..., and
presented more B'); a measure or arm set apart by 'but not'; the head likened to the
comparator, or to another arm.

A null phrase near the outcome is not always about it, nor a direction about the arm
asked: these checks decide which nulls count, and when a direction becomes 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.extraction.clauses import breaks, next_break
from pipeline.extraction.lexicon import (
    ARM_NOUNS,
    ARM_PREPOSITIONS,
    CHANGE_WORDS,
    CONTROL_WORDS,
    COUNT_WORDS,
    FOLLOW_UP_BREAKS,
    FOLLOW_UP_SUBJECTS,
    INEFFECTIVE_WORDS,
    JUDGEMENT_WORDS,
    LIKENED_LINKS,
    LIKENED_WORDS,
    NEGATIONS,
    SET_APART_LEADS,
    SET_APART_MARKERS,
    SIGN_OF,
    STOP_WORDS,
    TREATED_WORDS,
)
from pipeline.extraction.mentions import Mention
from pipeline.extraction.sentence import Sentence
from pipeline.extraction.timepoints import shares_a_time, time_positions

SET_APART_REACH = 2  # words between 'but not' and the measure set apart ('but not against')
LIKENESS_REACH = 8  # tokens from 'similar' to the 'to' before the comparator
# Words that end the phrase a likeness word leads ('similar ... to C').
PHRASE_BREAKS = frozenset({"to", "with", "than", "(", ")"})
# Words before the arm a likeness names ('similar to that of naproxen', 'with both A and B').
REFERENCE_LEADS = frozenset({"the", "that", "those", "of", "both", "all", "each", "either"})
FOLLOW_UP_WINDOW = 4  # tokens at the start of the next clause that may refer back to it
BETWEEN_WINDOW = 4  # tokens after a null phrase, then after 'between', naming the arms
ARM_LEAD = 2  # tokens after a preposition in which the arm it leads to begins ("in the A group")
# Words before which a change word is a verb ('did not change', 'failed to increase').
VERB_LEADS = frozenset({"not", "n't", "never", "to"})
# 'with no increase', 'with no significant difference': what a null opened by 'with no' says
_CHANGE_AFTER_NO = FOLLOW_UP_SUBJECTS | {"significant"}
JUDGEMENT_REACH = 8  # tokens before 'in <verb>ing' in which its judgement is made
FOLLOW_UP_LEAD = 2  # tokens before a subjectless null ('but did not', 'there was no')
SET_APART_AFTER_REFERENCE = 10  # tokens from a comparison's reference to 'but not C'
BETWEEN_SUBJECT_REACH = 8  # tokens before a null in which its subject names 'between'
# Verbs that open a predicate of their own after "and" ("... and was associated with").
PREDICATE_VERBS = frozenset({"was", "were", "is", "are", "had", "has", "have", "led",
                             "caused", "resulted", "showed", "produced"})
NULL_WORD_REACH = 2  # tokens after a one-word null ('neither') where its 'significant' may stand


def set_apart(words: Sequence[str], mention: Mention) -> bool:
    """'reduced A but not B', 'efficacy against A but not against B', 'lower with drug A
    but not with drug B': the direction the clause states is A's; the measure or arm B is
    set apart from it."""
    i = mention.start - 1
    for _ in range(SET_APART_REACH):
        if i < 0 or words[i] not in SET_APART_LEADS:
            break
        i -= 1
    return i >= 1 and words[i] == "not" and words[i - 1] in SET_APART_MARKERS


def reference_set_apart(sentence: Sentence, comparator: Mention) -> bool:
    """'lower when compared to UC (p = 0.009) but not MIC': the comparator set apart from
    the reference a comparison names, so the direction holds against the other arm only.
    Not 'reduced with A but not with B' with no reference named: annotators read that
    within-arm contrast as A's effect against B."""
    return set_apart(sentence.words, comparator) and any(
        marker_end <= comparator.start <= marker_end + SET_APART_AFTER_REFERENCE
        for _, marker_end in sentence.compares)


def likened_to_comparator(sentence: Sentence, comparators: Sequence[Mention]) -> bool:
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
            if words[i] in LIKENED_WORDS and words[i + 1] != "-":  # not 'the same-day arm'
                return True
            if words[i] in SIGN_OF or words[i] in PHRASE_BREAKS:
                break
    return False


def likened_to_another(words: Sequence[str], span: tuple[int, int], start: int, end: int,
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


def null_follow_up(sentence: Sentence, start: int, end: int, arm_tokens: set[int],
                   head_tokens: set[int]) -> tuple[int, int] | None:
    """'X was more frequent with A (79% vs 69%), but the difference was not significant':
    a null phrase in the next clause, whose subject refers back to the tail's finding (the
    clause from `start` to `end`) or which is said of the arms with no subject of its own
    ('improved over time but did not differ between groups'; not '; only scores for X did
    not differ between arms'), and not at another time ('greater gains at 1 year, although
    the difference was not significant by 2 years'); for the last clause, the next
    sentence's (`Sentence.withdrawn`)."""
    words = sentence.words
    if end >= sentence.end:
        return sentence.withdrawn
    if words[end] not in FOLLOW_UP_BREAKS:
        return None
    first = end + 1
    while first < sentence.end and (words[first] == "," or breaks(words, first)):
        first += 1  # '; however, this decrease ...'
    stop = next_break(words, first, sentence.end)
    span = next((s for s in sentence.nulls if first <= s[0] < stop), None)
    if span is None or _at_other_times(words, (start, end), (first, stop)):
        return None
    # ('but did not change B': after a negation or 'to' the word is the verb, not a
    # subject that refers back)
    if any(words[i] in FOLLOW_UP_SUBJECTS and words[i - 1] not in VERB_LEADS
           for i in range(first, min(stop, first + FOLLOW_UP_WINDOW))
           ) or difference_between_arms(words, span[0], first):
        return span
    if span[0] - first > FOLLOW_UP_LEAD:
        return None
    # with no subject of its own, a null is said of the arms ('but did not differ between
    # groups') or, ending its clause, of the finding before it ('but did not reach
    # statistical significance'; not 'but no significant difference among infants who ...')
    # ('but were neither statistically significant nor clinically meaningful': the
    # significance word may follow a one-word null, and another judgement after 'nor')
    said = range(span[0], min(stop, span[1] + NULL_WORD_REACH))
    ends = max([span[1], *(i + 1 for i in said if words[i].startswith("signific"))])
    of_the_finding = any(words[i].startswith("signific") for i in said) and (
        ends >= stop or words[ends] in (".", ",", "(", ")", "nor"))
    return span if of_the_finding or between_arms(words, span[1], stop, arm_tokens,
                                                  head_tokens) else None


def _at_other_times(words: Sequence[str], finding: tuple[int, int],
                    follow_up: tuple[int, int]) -> bool:
    """Whether the finding and the clause after it each name a time point, and no time
    point is named in both."""
    before = [days for _, days in time_positions(words, *finding)]
    after = [days for _, days in time_positions(words, *follow_up)]
    return bool(before) and bool(after) and not shares_a_time(before, after)


def between_arms(words: Sequence[str], after: int, end: int, arm_tokens: set[int],
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


def difference_between_arms(words: Sequence[str], span_start: int, after: int) -> bool:
    """'..., but the difference between groups was not significant', 'the difference between
    the changes did not reach significance', 'the between-group difference was not
    significant': a null whose subject, in its own clause after `after`, is the difference
    between the arms is the between-arm finding, whatever change one arm saw."""
    first = max(after, span_start - BETWEEN_SUBJECT_REACH)
    for i in range(span_start - 1, first - 1, -1):
        if breaks(words, i):
            return False
        if words[i] == "between" and any(
                words[j] in ARM_NOUNS or words[j] in CHANGE_WORDS or words[j] == "changes"
                for j in range(i + 1, min(span_start, i + 1 + BETWEEN_WINDOW))):
            return True
    return False


def without_another(words: Sequence[str], span: tuple[int, int], cue_at: int,
                    tail: Mention) -> bool:
    """'improved compliance without a detectable effect on infection rates', 'reduced
    recurrence, but there was no effect on survival', 'reduces PONV, with no increase in
    adverse events': a null after the changed outcome, opened by 'without' or by 'with
    no' and a change ('compared with no treatment, but this difference ...' is no such
    null) or aimed at something ('on'), is said of what follows it."""
    opened = words[span[0]] == "without" or (
        words[span[0]] == "no" and words[span[0] - 1] == "with"
        and span[0] + 1 < len(words) and words[span[0] + 1] in _CHANGE_AFTER_NO)
    return cue_at < tail.start < span[0] and (
        opened or span[1] < len(words) and words[span[1]] == "on")


def judged_no_better(words: Sequence[str], start: int, cue_at: int) -> bool:
    """'was not better than social activity in reducing depressive symptoms', 'is
    ineffective in preventing hypotension': a change named after 'in' as what the
    intervention was judged at, when the judgement before it is negative."""
    if cue_at < 1 or words[cue_at - 1] != "in" or not words[cue_at].endswith("ing"):
        return False
    before = range(max(start, cue_at - 1 - JUDGEMENT_REACH), cue_at - 1)
    return any(words[i] in INEFFECTIVE_WORDS or words[i] in NEGATIONS and any(
        words[j] in JUDGEMENT_WORDS for j in range(i + 1, min(cue_at - 1, i + 3)))
        for i in before)


def conjoined_apart(words: Sequence[str], after: int, before: int) -> bool:
    """'X was not associated with A, and presented more B', 'did not significantly
    reduce A and was associated with more B': ', and' or 'and' before a verb of its own
    opens a second predicate between the null and the tail's cue, so the null is not
    about B."""
    return any(words[i] == "and" and (words[i - 1] == "," or words[i + 1] in PREDICATE_VERBS)
               for i in range(after + 1, before))

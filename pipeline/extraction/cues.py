"""The direction cue: the word nearest the outcome that says which way it went ('reduced',
'higher', a plain 'low' before it), the sign it gives once graded ('a greater reduction')
or multiplied by the head's own comparative ('higher M was associated with lower Y').

Many words that look like cues are not findings, and are skipped here: a purpose ('to
lower'), an amount ('more than 20%'), a population ('at an increased risk of') or the
design ('double-blind').
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.extraction.lexicon import (
    AMOUNT_LEADS,
    ASSOCIATION_WORDS,
    CHANGE_WORDS,
    COUNT_WORDS,
    DEGREE_WORDS,
    FAILED_WORDS,
    GRADING_WORDS,
    LESS_WORDS,
    MORE_WORDS,
    PREDICATE_LEADS,
    PREDICATE_ONLY,
    RANKED_WORDS,
    REDUCTION_OUTCOME_WORDS,
    ROMAN_NUMERALS,
    SIGN_OF,
    VALENCE_CUES,
)
from pipeline.extraction.mentions import Mention
from pipeline.extraction.sentence import Sentence

DEGREE_WINDOW = 2  # tokens before the outcome a plain 'low' / 'high' may stand


def distance_to(start: int, end: int, mention: Mention) -> int:
    if end <= mention.start:
        return mention.start - end + 1
    if start >= mention.end:
        return start - mention.end + 2  # cues after the tail ("Y fell") weigh a little less
    return 0


def nearest_cue(words: Sequence[str], start: int, end: int, tail: Mention,
                taken: set[int]) -> tuple[int | None, int]:
    best: tuple[int, int] | None = None
    for i in range(start, end):
        if i in taken or not is_cue(words, i):
            continue
        if words[i] in ("inversely", "inverse", "negatively", "positively") and not (
                i + 1 < end and words[i + 1] in ASSOCIATION_WORDS):
            continue
        if words[i] in PREDICATE_ONLY and not (i > 0 and words[i - 1] in PREDICATE_LEADS):
            continue
        distance = distance_to(i, i + 1, tail)
        if best is None or distance < best[0]:
            best = (distance, i)
    if best is None:
        return None, 0
    return best[1], compound_sign(words, start, end, best[1], range(tail.start, tail.end))


def is_cue(words: Sequence[str], i: int) -> bool:
    """A direction word that says what happened: not an aim ('to lower'), an amount
    ('more than 20%', 'most of'), a population at risk or a blinded design."""
    return words[i] in SIGN_OF and not (_purpose(words, i) or is_amount(words, i)
                                        or _at_risk(words, i) or _blinding(words, i))


def degree_before_tail(sentence: Sentence, start: int, end: int,
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


def compound_sign(words: Sequence[str], start: int, end: int, at: int,
                  named: range = range(0)) -> int:
    """'a greater reduction', 'reduced X more than Y': a bare comparative takes its sign
    from the change word it grades (and 'less' inverts it), not from one inside the
    outcome's name (`named`: 'a greater percentage decrease in tidal volume' is more of
    that decrease)."""
    sign = SIGN_OF[words[at]]
    if at > start and words[at - 1] in ("less", "more") and words[at] not in CHANGE_WORDS:
        return SIGN_OF[words[at - 1]] * sign  # 'less frequent', whichever is nearer Y
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


def graded_change(words: Sequence[str], start: int, end: int) -> int | None:
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
    more complications', 'most of the patients': an amount, not a comparison of arms;
    'least squares mean' names an estimate, 'the most common adverse event' ranks events,
    not arms."""
    if words[i] == "most" and i + 1 < len(words) and words[i + 1] == "of":
        return True
    if words[i] == "least" and ((i > 0 and words[i - 1] == "at") or (
            i + 1 < len(words) and words[i + 1] in ("squares", "square"))):
        return True
    if i > 1 and words[i - 1] == "or" and (words[i - 2] in COUNT_WORDS
                                           or words[i - 2].isdigit()
                                           or words[i - 2] in ROMAN_NUMERALS
                                           or i > 2 and words[i - 2].isalpha()
                                           and _NUMBER_WORD.match(words[i - 3])):
        return True  # 'one or more', 'grade 3 or higher', 'stage II or greater', '4 points
        # or more'
    if (words[i] in ("most", "least") and i > 0 and words[i - 1] == "the"
            and i + 1 < len(words) and words[i + 1] in RANKED_WORDS):
        return True
    return (i + 2 < len(words) and words[i + 1] == "than"
            and (any(ch.isdigit() for ch in words[i + 2]) or words[i + 2] in AMOUNT_LEADS))


def _purpose(words: Sequence[str], i: int) -> bool:
    """'to lower the risk', 'aimed at reducing': an intention, not a result; not 'failed
    to reduce', a result that a negation turns into a null."""
    word = words[i]
    base = not word.endswith(("ed", "ing", "s", "tion", "er", "ion"))
    return i > 0 and ((words[i - 1] == "to" and base and not (
        i > 1 and words[i - 2] in FAILED_WORDS))
                      or (word.endswith("ing") and words[i - 1] in ("at", "for")))


def modifier_sign(words: Sequence[str], heads: Sequence[Mention], start: int,
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


# Words for a fall in something adverse ('an improvement of 4 points or more in itch'),
# beside those for a fall in any measure (REDUCTION_OUTCOME_WORDS: 'a reduction of at
# least 1% in HbA1c'); how far before the outcome they are looked for.
IMPROVEMENT_WORDS = frozenset({"improvement", "improvements"})
FALL_REACH = 8
_NUMBER_WORD = re.compile(r"\d+(?:\.\d+)?$")


def counted_by_a_fall(sentence: Sentence, tail: Mention, adverse: bool) -> bool:
    """Whether the outcome is named as what patients had a fall in ('an improvement of 4
    points or more in Worst Pruritus NRS was reported by 52% ... versus 12%'): more of
    them is less of the outcome. No punctuation between."""
    words = sentence.words
    for i in range(tail.start - 1, max(tail.start - FALL_REACH, sentence.start) - 1, -1):
        word = words[i].lower()
        if word in (",", ";", "(", ")", ":", "."):
            return False
        if word in REDUCTION_OUTCOME_WORDS or adverse and word in IMPROVEMENT_WORDS:
            return True
    return False

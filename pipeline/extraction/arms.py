"""Which arm a sentence names where: the arms' mentions in a clause (generic group words
standing in for an unnamed arm), both arms as one subject, where a change 'from A to B'
begins and ends, and whether the comparator is the subject of the comparison.

The cue alone does not say whose outcome moved: 'lower in the placebo group' is higher
with the intervention, so the rules flip the sign when the comparator is the subject.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pipeline.extraction.clauses import inside_parentheses
from pipeline.extraction.cues import is_amount
from pipeline.extraction.lexicon import (
    ARM_NOUNS,
    ARM_PREPOSITIONS,
    COMBINATION_JOINERS,
    CONTROL_WORDS,
    CONTROLLED_WORDS,
    NEGATING_PREFIXES,
    OPENING_LEADS,
    OPENING_MARKERS,
    STATISTIC_NOUNS,
    TREATED_WORDS,
    VERSUS_WORDS,
)
from pipeline.extraction.mentions import Mention, stem
from pipeline.extraction.sentence import Sentence
from pipeline.extraction.stats import MEASURE_LOOKBACK, Statistic

BOTH_LIST_REACH = 6  # tokens from 'both' to an outcome it lists, and on to its 'and'
BOTH_ARMS_GAP = 2  # 'both the A and B groups': tokens from 'both' to the first arm
REFERENCE_WINDOW = 5  # tokens after 'than'/'versus' in which the reference arm is named
# Words between 'than' / 'compared with' and the reference's name ('than those given X').
REFERENCE_FILLERS = frozenset({"the", "those", "that", "a", "an", "in", "with", "of", "on",
                               "to", "for", "patients", "subjects", "participants", "who",
                               "receiving", "received", "given", "treated", "taking", "after",
                               "their", "any"})
# 'efficacy against severe cholera', 'superiority over 12 months': what or when, as often
# as against which arm.
LOOSE_MARKERS = frozenset({"against", "over"})
UNNAMED_ARM_NOUNS = frozenset({"group", "arm"})
LIST_JOINERS = frozenset({"and", "versus", "vs", "vs.", "compared", ",", ";", "whereas",
                          "while"})
# References that are no arm: a time, a norm, the whole or another part of the sample.
NOT_ARMS = frozenset({"baseline", "before", "pre", "prior", "previous", "previously",
                      "pretreatment", "expected", "predicted", "normal", "healthy", "other",
                      "others", "all", "both", "either", "each", "this", "these", "men",
                      "women", "boys", "girls", "children", "adults", "nonsmokers",
                      "smokers", "day", "week", "month", "year", "visit", "peers",
                      "counterparts", "comparison"}) | NEGATING_PREFIXES
POPULATION_OPENING = 8  # tokens (a section label's too) in which 'Among' opens a clause
SUBJECT_WINDOW = 8  # tokens after a cue (or 'to') in which its arm is named
OPENING_REACH = 15  # tokens after an opening 'Compared with' in which its comma ends it


def both_arms_before(words: Sequence[str], start: int, cue_at: int | None,
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


def lists_outcomes(words: Sequence[str], after: int, tail: Mention) -> bool:
    """'significant improvements in both quality of life and mood': a 'both' that opens a
    list of outcomes holding the tail names no arms, so it says no change within them."""
    return (words[after - 1] == "both" and after <= tail.start <= after + BOTH_LIST_REACH
            and "and" in words[after:tail.end + BOTH_LIST_REACH])


def arms_in(sentence: Sentence, start: int, end: int, heads: Sequence[Mention],
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
                words[i] == "control" and i > 0 and words[i - 1] in CONTROLLED_WORDS) and not (
                i + 1 < len(words) and words[i + 1] in STATISTIC_NOUNS):
            arms.append((i, i + 1, "C"))
        elif words[i] in TREATED_WORDS and i + 1 < end and words[i + 1] in (
                "group", "groups", "arm", "patients"):
            role = _hyphenated_role(words, i)
            if role is not None:
                arms.append((i, i + 1, role))
    return sorted(arms)


def introduced_first(heads: Mapping[int, Sequence[Mention]],
                     comparators: Mapping[int, Sequence[Mention]]) -> int:
    """Which arm the first sentence naming both names first ('randomised to colchicine
    or placebo'): +1 the intervention, -1 the comparator, 0 when no sentence names both.
    Results that name neither list the arms' values in that order ('18.1% vs 27.3%')."""
    both = sorted(heads.keys() & comparators.keys())
    if not both:
        return 0
    first = both[0]
    return 1 if (min(m.start for m in heads[first])
                 < min(m.start for m in comparators[first])) else -1


def _hyphenated_role(words: Sequence[str], i: int) -> str | None:
    """The arm a treated-group word names: the intervention's, or after a hyphen the one
    its prefix says ('non-exposed group', 'no-treatment group': the arm without; an
    'active-treatment group': the intervention's; a 'delayed-treatment group': unknown)."""
    if i < 2 or words[i - 1] != "-":
        return "I"
    if words[i - 2] in NEGATING_PREFIXES:
        return "C"
    return "I" if words[i - 2] in TREATED_WORDS else None


def _joined_to_head(words: Sequence[str], comparator: Mention,
                    heads: Sequence[Mention]) -> bool:
    """'5% KNO3 and diode laser', 'usual care plus exercise': the comparator named as the
    base of a combination is part of the intervention arm, not the other arm; so is a
    word of the comparator's name written as the intervention's modifier ('Topical
    sunflower seed oil', asked against no topical treatment), unless it names a control
    ('sham acupuncture')."""
    joint = comparator.end
    if any(h.start == joint for h in heads) and CONTROL_WORDS.isdisjoint(
            words[comparator.start:joint]):
        return True
    if joint >= len(words) or words[joint] not in COMBINATION_JOINERS:
        return False
    return any(h.start == joint + 1 and not (h.end < len(words) and words[h.end] in (
        "groups", "arms")) for h in heads)


def comparator_is_subject(sentence: Sentence, start: int, end: int, cue_at: int,
                          heads: Sequence[Mention], comparators: Sequence[Mention]) -> bool:
    """Which arm has more/less of the tail. 'than C' / 'compared with C' marks C as the
    reference; else the arm right after the cue ('higher in the placebo group'), else the
    first arm before it (the grammatical subject usually leads)."""
    arms = arms_in(sentence, start, end, heads, comparators)
    if not arms:
        return False
    words = sentence.words
    opening = _opening_reference(sentence, arms, cue_at)
    if opening is not None:
        return opening == "I"
    inside = inside_parentheses(words, start, end)
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
    change = from_to(words, cue_at, min(end, cue_at + 3), end)
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
    # 'X reduced PPH after caesarean delivery': where the intervention opens the clause as
    # its subject, a comparator's name after the cue is a setting, not the arm with more
    led_by_head = bool(arms) and arms[0][2] == "I" and arms[0][1] <= cue_at and not (
        _behind_preposition(words, start, arms[0][0]))
    for arm_start, _, role in arms:
        if led_by_head and role == "C":
            break
        if cue_at < arm_start <= cue_at + SUBJECT_WINDOW and _behind_preposition(
                words, cue_at, arm_start):
            if words[arm_start - 1] == "from":
                return role == "I"  # 'a reduction from baseline': the arm it began at
            return role == "C"
    before = _after_the_population(words, start, [a for a in arms if a[1] <= cue_at])
    return bool(before) and before[0][2] == "C" and not _listed_after_unnamed_arm(
        words, start, before[0][0], arms)


def _after_the_population(words: Sequence[str], start: int,
                          arms: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """'Among patients who had received standard rehabilitation, exercise improved ...':
    an opening 'Among ...,' says who was studied, so the subject is an arm after its
    comma when one is named there."""
    among = next((i for i in range(start, min(start + POPULATION_OPENING, len(words)))
                  if words[i] == "among" and (i == start or words[i - 1] == ":")), None)
    if among is None or not arms:
        return arms
    comma = next((i for i in range(among, arms[-1][0]) if words[i] == ","), None)
    after = [a for a in arms if comma is not None and a[0] > comma]
    return after or arms


def _behind_preposition(words: Sequence[str], floor: int, arm_start: int) -> bool:
    """Whether an arm's name comes within three words after 'in', 'with', 'after', ...
    ('higher in the placebo group'), not before `floor`."""
    return any(words[j] in ARM_PREPOSITIONS for j in range(max(floor, arm_start - 3), arm_start))


def _listed_after_unnamed_arm(words: Sequence[str], start: int, arm_start: int,
                              arms: list[tuple[int, int, str]]) -> bool:
    """'38 in the FTC-TDF group and 66 in the placebo group, a 43% reduction': where
    the clause names no intervention, a comparator listed after a group the rules
    could not name is the second of two arms, not the subject."""
    if any(role == "I" for _, _, role in arms):
        return False
    taken = {i for s, e, _ in arms for i in range(s, e)}
    return any(words[j] in UNNAMED_ARM_NOUNS and j not in taken
               and any(w in LIST_JOINERS for w in words[j + 1:arm_start])
               for j in range(start, arm_start))


def compared_with_another(sentence: Sentence, start: int, end: int,
                          heads: Sequence[Mention], comparators: Sequence[Mention],
                          arm_stems: frozenset[str]) -> bool:
    """'olmesartan reduced SeDBP more than losartan', asked against valsartan: the clause
    names no comparator (nor a stand-in for one) and its 'than' / 'compared with' names
    some other reference, another arm of a trial with more than two. Amounts ('more than
    50%'), group and control words, times ('than at baseline') and a word of either arm's
    name (`arm_stems`: 'than the print group' for 'print materials') are no such
    reference."""
    words = sentence.words
    markers = [(a, b) for a, b in sentence.compares
               if start <= a < end and words[a] not in LOOSE_MARKERS]
    if not markers:
        return False
    arms = arms_in(sentence, start, end, heads, comparators)
    if any(role == "C" and not _another_control(words[a], arm_stems) for a, _, role in arms):
        return False
    inside = inside_parentheses(words, start, end)
    for marker_start, marker_end in markers:
        if marker_start in inside or (marker_start > 0 and is_amount(words, marker_start - 1)):
            continue
        reach = min(end, marker_end + REFERENCE_WINDOW)
        j = marker_end
        while j < reach and words[j] in REFERENCE_FILLERS:
            j += 1
        if j < reach and words[j].isalpha() and words[j] not in ARM_NOUNS | NOT_ARMS and not (
                stem(words[j]) in arm_stems or any(a <= j < b for a, b, _ in arms)):
            return True
        if j < reach and _another_control(words[j], arm_stems):
            return True
    return False


# Kinds of control arm a three-arm trial may hold side by side ('acupuncture, sham
# acupuncture or usual care'): an inert imitation, the usual care, nothing.
CONTROL_KINDS = (frozenset({"placebo", "sham", "vehicle"}),
                 frozenset({"usual", "standard", "routine"}),
                 frozenset({"untreated", "no-treatment", "waitlist", "wait-list"}))


_CONTROL_KIND_STEMS = tuple(frozenset(stem(w) for w in kind) for kind in CONTROL_KINDS)


def _another_control(word: str, arm_stems: frozenset[str]) -> bool:
    """'than usual care' asked against sham acupuncture: a control of another kind than
    the one an arm's name holds is a third arm, not the comparator."""
    kind = next((i for i, words in enumerate(CONTROL_KINDS) if word in words), None)
    named = {i for i, stems in enumerate(_CONTROL_KIND_STEMS) if stems & arm_stems}
    return kind is not None and bool(named) and kind not in named


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


def from_to(words: Sequence[str], after: int, before: int,
            end: int) -> tuple[int, int] | None:
    """Positions of a 'from' between `after` and `before` and of the 'to' that follows it."""
    origin = next((j for j in range(after + 1, before) if words[j] == "from"), None)
    if origin is None:
        return None
    target = next((j for j in range(origin + 1, min(end, origin + SUBJECT_WINDOW * 2))
                   if words[j] == "to"), None)
    return (origin, target) if target is not None else None


def estimate_orientation(sentence: Sentence, estimate: Statistic,
                         heads: Sequence[Mention], comparators: Sequence[Mention]) -> int:
    """-1 for an estimate labelled comparator first ('hazard ratio for oral vs LAI 1.94'),
    1 otherwise: a ratio compares the intervention with the comparator unless its label
    says the other way."""
    words = sentence.words
    starts = {m.start for m in heads}
    for m in comparators:
        at = sentence.offset(m.start)
        if (estimate.offset - MEASURE_LOOKBACK <= at < estimate.offset
                and m.end + 1 < sentence.end and words[m.end] in VERSUS_WORDS
                and m.end + 1 in starts):
            return -1
    return 1

"""The direction the arms' own numbers give: the value written by each arm ('4 for bolus
therapy and 3 for CI therapy'), listed 'respectively', stated after it ('it was 60%'), in
parentheses ('13/39, 33%') or as a count over a whole ('15 of 3552'), and a change 'from A
to B'.

Results are often written as numbers with no direction word; when a word is there, the
numbers may still say which way the outcome went, whatever it is named.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.extraction.arms import arms_in, from_to
from pipeline.extraction.clauses import breaks, inside_parentheses, outside_parentheses
from pipeline.extraction.lexicon import (
    ARM_NOUNS,
    COUNT_VALUES,
    SPELLED_TEENS,
    SPELLED_TENS,
    TIME_WORDS,
    VERSUS_WORDS,
)
from pipeline.extraction.mentions import Mention
from pipeline.extraction.sentence import Sentence

_NUMBER = re.compile(r"^[-+]?\d+(?:[.,]\d+)?%?$")
_THOUSANDS = re.compile(r"^[-+]?[1-9]\d{0,2},\d{3}$")
_FRACTION = re.compile(r"^(\d+)/(\d+)$")  # events over a total ('13/39')
_THOUSANDS_GROUP = re.compile(r"^[1-9]\d{0,2}$")  # '15' of '15 432'
_THREE_DIGITS = re.compile(r"^\d{3}$")
_MEAN_SPREAD = re.compile(r"^([-+]?\d+(?:\.\d+)?)±\d")  # a mean and its SD as one token
DOSE_LEADS = frozenset({"with", "on", "receiving", "given", "taking", "using"})
SHARE_LOOKBACK = 4  # tokens before 'of' searched for a count over a whole ('15 of 3552')
ZERO_LOOKBACK = 10  # tokens before a whole searched for the 'no' that makes its count none
NONE_REACH = 4  # tokens before an arm in which 'none' is its count ('in none of the A group')
TIME_POINT_LEADS = frozenset({"at", "after", "by", "within", "over", "during"})
NUMBER_LOOKBACK = 12  # tokens before an arm searched for its value ('4 for bolus therapy')
OPENING_ARM = 3  # tokens before an arm that opens its clause ('In the A group')
COPULA_LOOKAHEAD = 4  # tokens after an arm searched for 'was N' ('in B, it was 60%')
# A number after one of these is a spread or a range end, not an arm's value; spaCy splits
# "+/-" into "+" and "/-".
SPREAD_MARKERS = frozenset({"±", "+/-", "/-", "to", "sd"})
VERSUS_REACH = 6  # tokens from a value to the 'vs' it stands before or after
BY_REACH = 2  # tokens after a change's cue in which 'by' leads its amounts ('rose by')


def values_moved(words: Sequence[str], after: int, before: int, end: int) -> int | None:
    """+1 / -1 when 'from A ... to B' follows `after` (its 'from' before `before`) with a
    number right after each, None otherwise."""
    change = from_to(words, after, before, end)
    if change is None:
        return None
    origin, target = change
    if target + 1 >= end or not (_NUMBER.match(words[origin + 1])
                                 and _NUMBER.match(words[target + 1])):
        return None
    a, b = _value_of(words[origin + 1]), _value_of(words[target + 1])
    return None if a == b else (1 if b > a else -1)


def numeric_direction(sentence: Sentence, start: int, end: int, tail: Mention,
                      heads: Sequence[Mention], comparators: Sequence[Mention]) -> int | None:
    """'4 for bolus therapy and 3 for CI therapy': the value written just before each
    arm's mention; +1 when the head's arm has the larger value."""
    arms = arms_in(sentence, start, end, heads, comparators)
    respectively = "respectively" in sentence.words[start:end]
    if respectively:
        listed = _listed_values(sentence.words, start, end, arms, range(tail.start, tail.end))
        if listed is not None:
            return listed or None
    values: dict[str, float] = {}
    previous_end = start
    for arm_start, arm_end, role in arms:
        # after the arms, 'were 50%, 21% and 11%, respectively' lists every arm's value
        value = None if respectively else _value_stated_after(sentence.words, arm_end, end)
        if value is None:
            value = _value_in_parentheses(sentence.words, arm_end, end)
        if value is None:
            value = _value_before(sentence.words,
                                  max(previous_end, arm_start - NUMBER_LOOKBACK), arm_start)
        if value is None and arm_start - start <= OPENING_ARM:
            value = _share_after_opening_arm(sentence.words, arm_end, end)
        previous_end = arm_end
        if value is not None:
            values.setdefault(role, value)
    if len(values) == 1 and len(arms) == 1:
        (role, known), = values.items()
        other = _the_other_value(sentence.words, start, end, known)
        if other is not None:
            values["C" if role == "I" else "I"] = other
    if len(values) < 2 or values["I"] == values["C"]:
        return None
    return 1 if values["I"] > values["C"] else -1


def _the_other_value(words: Sequence[str], start: int, end: int,
                     known: float) -> float | None:
    """'84 of 412 children (20.4%) receiving chemoprevention and 163 of 405 (40.2%)
    control children': where one arm alone is named, the clause's one other value is
    the other arm's. None unless the clause holds just two values outside parentheses
    (a count over its whole as a share; not a time, an 'n =' or a number after 'at',
    'by', 'after' or 'within') before another clause joins it, and one is the named
    arm's."""
    found: list[float] = []
    for i in outside_parentheses(words, start, end):
        word = words[i]
        if len(found) == 2 and (breaks(words, i) or word == "," and words[i + 1:i + 2] == [
                "and"]):
            break  # '..., and rescue antiemetics were needed by 12.2% vs 30.0%'
        if not _NUMBER.match(word) or i > start and words[i - 1].lower() in (
                *SPREAD_MARKERS, "of", "n", "=", "at", "by", "after", "within"):
            continue
        if i + 1 < end and words[i + 1].lower() in TIME_WORDS:
            continue
        whole = _whole_after(words, i, end)
        if whole is None:
            found.append(_value_of(word))
        else:
            found.append(_value_of(word) / whole if whole else 0.0)
    if len(found) != 2 or known not in found or found[0] == found[1]:
        return None
    return found[1] if found[0] == known else found[0]


def unnamed_arms_direction(words: Sequence[str], start: int, end: int,
                           arm_order: int) -> int | None:
    """'atrial fibrillation occurred in 18.1% vs 27.3% (p=0.01)', 'eradication rates
    were 92.1% (152/165) and 81.3% (135/166), respectively': two values with no arm named
    are the arms' in the order the abstract introduced them (`arm_order` +1: the
    intervention first, -1: the comparator first, 0: unknown); +1 when the
    intervention's is larger. None unless the clause holds just such a pair."""
    if not arm_order:
        return None
    versus = versus_positions(words, start, end)
    if len(versus) == 1:
        return pair_direction(words, start, versus[0], end, arm_order)
    if versus or "respectively" not in (w.lower() for w in words[start:end]):
        return None
    listed = _listed_at_top(words, start, end)
    if len(listed) != 2 or words[listed[0][0] + 1:listed[1][0]].count("and") != 1:
        return None
    (_, first), (_, second) = listed
    return None if first == second else arm_order * (1 if first > second else -1)


def versus_positions(words: Sequence[str], start: int, end: int) -> list[int]:
    """Where 'vs' / 'versus' stands outside parentheses ('18.1% vs 27.3% (A vs B)')."""
    return [i for i in outside_parentheses(words, start, end)
            if words[i].lower() in VERSUS_WORDS]


def pair_direction(words: Sequence[str], start: int, versus: int, end: int,
                   arm_order: int) -> int | None:
    """The direction of the values on either side of the 'vs' at `versus`: the first
    value is the arm's that the abstract introduced first (`arm_order` +1: the
    intervention's); None without both values, or when they are equal."""
    first = _value_ending_at(words, start, versus)
    second = _value_after(words, versus + 1, min(end, versus + 1 + VERSUS_REACH))
    if not arm_order or first is None or second is None or first == second:
        return None
    return arm_order * (1 if first > second else -1)


def _listed_at_top(words: Sequence[str], start: int, end: int) -> list[tuple[int, float]]:
    """(token, value) of the numbers outside parentheses, a mean with its spread
    written in one ('9.5±4.8') as the mean; not spreads, range ends, nor the numbers
    that label groups ('groups 1 and 2')."""
    found: list[tuple[int, float]] = []
    labels: set[int] = set()
    for i in outside_parentheses(words, start, end):
        word = words[i]
        if i in labels or (i > start and words[i - 1] in SPREAD_MARKERS):
            continue
        if i > start and words[i - 1].lower() in ARM_NOUNS and _NUMBER.match(word):
            labels.update(j for j in (i + 2, i + 4) if j < end and words[j - 1] in (
                "and", ",", "or"))
            continue
        spread = _MEAN_SPREAD.match(word)
        if spread or _NUMBER.match(word):
            found.append((i, _value_of(spread[1] if spread else word)))
    return found


def _value_ending_at(words: Sequence[str], start: int, end: int) -> float | None:
    """The value right before `end`, past its parentheses and a unit or two ('18 of 306
    (5.9%) vs', '9.1 (SD 1.8) kg vs'): a count over its whole as a share."""
    i = end - 1
    if i > start and words[i] in (")", "]"):
        while i > start and words[i] not in ("(", "["):
            i -= 1
        i -= 1
    units = 0
    while i > start and not _NUMBER.match(words[i]) and units < 2 and (
            words[i] == "%" or words[i].isalpha() and words[i].lower() not in VERSUS_WORDS):
        units += words[i] != "%"
        i -= 1
    if i < start or not _NUMBER.match(words[i]) or (i > start and words[i - 1] in SPREAD_MARKERS):
        return None
    return _share_of(words, start, i)


def _value_after(words: Sequence[str], start: int, end: int) -> float | None:
    """The first number from `start` ('vs 34 of 306 (11.1%)': the count over its
    whole, as `_value_before` reads the value before)."""
    for i in range(start, end):
        if words[i] in ("(", "["):
            return None
        if _NUMBER.match(words[i]):
            whole = _whole_after(words, i, len(words))
            if whole is None:
                return _value_of(words[i])
            return _value_of(words[i]) / whole if whole else None
    return None


def _whole_after(words: Sequence[str], i: int, end: int) -> float | None:
    """The whole a count at `i` is out of ('34 of 306' -> 306), None when none follows."""
    if i + 2 < end and words[i + 1] == "of" and _NUMBER.match(words[i + 2]):
        grouped = _grouped(words, i + 3) if i + 3 < end else None
        return grouped[1] if grouped is not None else _value_of(words[i + 2])
    return None


def _grouped(words: Sequence[str], i: int) -> tuple[int, float] | None:
    """'15 432 participants': a whole with its thousands set apart by a space, as some
    journals write them; (its first token, its value) when the number at `i` ends one."""
    if i > 0 and _THREE_DIGITS.match(words[i]) and _THOUSANDS_GROUP.match(words[i - 1]):
        return i - 1, float(words[i - 1] + words[i])
    return None


def changed_by_amounts(sentence: Sentence, cue_at: int, end: int, tail: Mention,
                       heads: Sequence[Mention], comparators: Sequence[Mention]) -> int | None:
    """'Acuity improved by a mean of 0.8 lines in the game group and 1.6 lines in the
    patching group': the change happened in both arms, and the amounts after 'by' say
    which arm it happened more in (+1 the head's); None when the cue is not followed by
    'by' and both arms' amounts."""
    words = sentence.words
    if "by" not in words[cue_at + 1:cue_at + 1 + BY_REACH]:
        return None
    if {role for _, _, role in arms_in(sentence, cue_at, end, heads, comparators)} != {"I", "C"}:
        return None
    return numeric_direction(sentence, cue_at, end, tail, heads, comparators)


def summed_up_values(sentence: Sentence, start: int, cue_at: int, tail: Mention,
                     heads: Sequence[Mention], comparators: Sequence[Mention]) -> int | None:
    """'256 (12%) in the placebo group died compared with 182 (8%) in the simvastatin
    group, a risk reduction of 30%': a change after both arms and a comma sums up their
    values, whichever arm is named first; the values give the direction (None when the
    cue is not such a summary or the values give none)."""
    arms = arms_in(sentence, start, cue_at, heads, comparators)
    if {role for _, _, role in arms} != {"I", "C"} or "," not in sentence.words[
            max(arm_end for _, arm_end, _ in arms):cue_at]:
        return None
    return numeric_direction(sentence, start, cue_at, tail, heads, comparators)


def _listed_values(words: Sequence[str], start: int, end: int,
                   arms: list[tuple[int, int, str]], named: range) -> int | None:
    """'the rate in placebo, and both groups of A and B were 50%, 21%, and 11%,
    respectively': the values listed apart from the arms go to them in order; 0 (no
    direction) when they are not one per arm, rather than a guess from proximity. None
    when arms and values alternate ('4 for A and 3 for B, respectively')."""
    taken = {i for a in arms for i in range(a[0], a[1])}.union(named)
    listed = [i for i in outside_parentheses(words, start, end)
              if i not in taken and _NUMBER.match(words[i])
              and not (i > 0 and words[i - 1] in SPREAD_MARKERS)]
    # arms in parentheses label the values ('the hazard ratios (A vs. B) for X and Y were
    # 1.32 and 1.27, respectively'), they do not list them
    if not arms or not listed or inside_parentheses(words, start, end) & taken.difference(
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


def _share_after_opening_arm(words: Sequence[str], arm_end: int, end: int) -> float | None:
    """'In the study group only 9 patients (25.7%) requested ...': an arm that opens the
    clause, with nothing before it, has the share in parentheses after its count."""
    i = arm_end
    while i < end and (words[i] in ARM_NOUNS or words[i] in (",", "only")):
        i += 1
    if i + 2 >= end or not _NUMBER.match(words[i]) or words[i].endswith("%"):
        return None
    opening = i + 1 if words[i + 1] == "(" else i + 2  # ('9 (25.7%)', '9 patients (25.7%)')
    if opening + 1 >= end or words[opening] != "(":
        return None
    percent = words[opening + 1].endswith("%") or words[opening + 2:opening + 3] == ["%"]
    return _value_in_parentheses(words, opening, end) if percent else None


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
    spreads ('± 10.6') and range ends ('8 to 12.3'); 0 when 'none' leads the arm ('in
    none of the placebo group')."""
    inside: float | None = None
    depth = 0
    for i in range(end - 1, start - 1, -1):
        word = words[i]
        if word.lower() == "none" and i >= end - NONE_REACH and inside is None:
            return 0.0  # 'by none of the placebo recipients'
        if word in (")", "]"):
            depth += 1
        elif word in ("(", "["):
            depth = max(0, depth - 1)
        elif _NUMBER.match(word) and not (i > 0 and words[i - 1] in SPREAD_MARKERS
                                           or _dose_of_arm(words, i, end)
                                           or _time_point(words, i)):
            value = _share_of(words, start, i)
            if value is None:
                continue
            if depth == 0:
                return value
            if inside is None:
                inside = value
    return inside


def _dose_of_arm(words: Sequence[str], i: int, arm_start: int) -> bool:
    """'-74.3% with 1.5% ruxolitinib': a number between 'with' and the arm, with at most
    its unit, is the arm's dose, not its value."""
    return (i > 0 and words[i - 1].lower() in DOSE_LEADS
            and all(w == "%" or w.isalpha() and len(w) <= 3 for w in words[i + 1:arm_start])
            and arm_start - i <= 2)


def _share_of(words: Sequence[str], start: int, i: int) -> float | None:
    """The number at `i`, or the count before it over it when it is a whole ('15 of
    3552', 'one case out of 3632 deliveries', 'none of the 45 patients', '218 of 15 432'):
    arms of different sizes compare by rate. A whole no count leads is none when the
    clause opens with 'no' or 'none' ('No cases of NEC were observed among the 150
    infants'), and no value otherwise ('Among 7860 patients in the A group, 1123 had
    ...': the arm's size)."""
    grouped = _grouped(words, i)
    if grouped is not None:
        i, whole = grouped
    else:
        whole = _value_of(words[i])
    of = i - 1 if words[i - 1] != "the" else i - 2
    # ('among' may open the words searched: 'Among 7860 patients in the A group')
    if of < start or words[of] not in ("of", "among") or whole == 0 or (
            of == start and words[of] == "of"):
        return whole
    if _no_count_before(words, of):
        return 0.0
    if words[of] == "among":
        return None
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
        count = _spelled_count(words, k)
        if count is not None:
            return count / whole
        if _NUMBER.match(words[k]) and not words[k].endswith("%"):
            return _value_of(words[k]) / whole
    return whole


def _no_count_before(words: Sequence[str], of: int) -> bool:
    """Whether 'no' or 'none' leads the words before a whole, with no number between
    ('none of the 45', 'No cases of surgical NEC were observed among the 150'), also
    from before the arm's own words (the clause may open with it)."""
    for k in range(of - 1, max(0, of - ZERO_LOOKBACK) - 1, -1):
        if _NUMBER.match(words[k]) or _spelled_count(words, k) is not None:
            return False
        if words[k].lower() in ("no", "none"):
            return True
    return False


def _spelled_count(words: Sequence[str], k: int) -> int | None:
    """A count written in words ending at `k`: 'seven', 'thirty', 'thirty-one' (the tens
    with the units after a hyphen or a space); None when it is none."""
    units = COUNT_VALUES.get(words[k], SPELLED_TEENS.get(words[k]))
    if units is None:
        return SPELLED_TENS.get(words[k])
    lead = k - 2 if k > 1 and words[k - 1] == "-" else k - 1
    if units < 10 and lead >= 0 and words[lead] in SPELLED_TENS:
        return SPELLED_TENS[words[lead]] + units
    return units


def _time_point(words: Sequence[str], i: int) -> bool:
    """'At 13 weeks, the mean difference ...': when, not how much."""
    return (0 < i < len(words) - 1 and words[i - 1].lower() in TIME_POINT_LEADS
            and words[i + 1].lower() in TIME_WORDS)


def _value_of(word: str) -> float:
    """A number token's value ('12.5%', '3,2'); a comma before three digits after a
    non-zero whole part groups thousands ('1,067 children'), as English abstracts write
    them."""
    number = word.rstrip("%")
    if _THOUSANDS.match(number):
        return float(number.replace(",", ""))
    return float(number.replace(",", "."))

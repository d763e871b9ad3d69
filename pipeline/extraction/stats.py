"""Reported statistics: p-values, confidence intervals and effect estimates in a sentence.

Authors state significance in numbers as often as in words; a finding whose p is 0.4
or whose interval crosses the null is a null finding whatever its verbs say.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from enum import IntEnum

ALPHA = 0.05

_NUMBER = r"[-+]?(?:\d+(?:[.,·]\s?\d+)?|[.,·]\d+)"
# Each pattern opens with the exact set of characters its matches can start with, outside
# the case-insensitive part: a pattern whose first character is a plain set lets Python's
# re jump between candidate positions instead of trying a match at every character (four
# times faster here). tests/test_extract_components.py checks them against the plain
# case-insensitive spelling: "(?<![a-z])p ... | (?<![a-z])(?P<ns>n.s.)(?![a-z])" and
# "(?:\d{2}\s*%\s*CI ... | \bCI\b) low - high".
_P_VALUE = re.compile(
    r"[pPnN](?i:(?<=p)(?<![a-z]p)\s*(?:-?\s*values?)?\s*(?:for\s+\w+\s*)?"
    r"(?P<op>[=<>≤≥]=?|<\s*or\s*=|was|of)\s*"
    rf"(?P<value>{_NUMBER})(?:\s*[x×]\s*10\s*\^?\s*(?P<exp>[-+]?\d+))?"
    r"|(?<=n)(?<![a-z]n)(?P<ns>\.?\s?s\.?)(?![a-z]))")
_INTERVAL = re.compile(
    r"[\dCc](?i:(?:(?<=\d)\d\s*%\s*(?:CI|CrI|confidence\s+interval|credible\s+interval)"
    r"|(?<=c)(?<!\wc)I\b)"
    rf"[^\d+.-]{{0,12}}(?P<low>{_NUMBER})\s*%?\s*(?:-|to|,)\s*(?P<high>{_NUMBER}))")
# Ratio measures have a null value of 1, differences of 0.
RATIO_MEASURES = frozenset({"or", "aor", "rr", "hr", "ahr", "irr", "rate ratio", "odds ratio",
                            "hazard ratio", "risk ratio", "relative risk"})
# Of these, the ratios of the rate at which an event comes (the event that ends a time).
HAZARD_MEASURES = frozenset({"hr", "ahr", "hazard ratio"})
DIFFERENCE_MEASURES = frozenset({"md", "smd", "wmd", "rd", "mean difference", "difference",
                                 "beta", "β"})
# How much less often the outcome comes with the intervention: an efficacy (1 - the risk
# ratio, in percent) or a risk reduction; its null is 0, and an estimate above it is a
# decrease.
REDUCTION_MEASURES = frozenset({"vaccine efficacy", "vaccine effectiveness",
                                "protective efficacy", "protective effectiveness",
                                "efficacy of the vaccine", "ve", "risk reduction",
                                "absolute risk reduction", "relative risk reduction", "arr",
                                "rrr"})
# How far before an interval its estimate may be named ("the risk ratio for X with A
# versus B was 1.24 (95% CI ...)").
MEASURE_LOOKBACK = 120
# An arm's share right before its own interval ('87.6% (95% CI 84.6 to 90.1)', '(50.5%;
# 95% CI, 40.7%-60.4%)'), and the characters before the interval in which it ends.
_SHARE_BEFORE = re.compile(r"(\d+(?:\.\d+)?)\s?%\s*[(\[;,]\s*$")
# a time right before an interval's parenthesis ('11.6 months (95% CI')
_TIME_BEFORE = re.compile(
    r"(\d+(?:\.\d+)?)\s?(?:months?|weeks?|days?|years?|hours?|minutes?)\s*[(\[]\s*$")
TIME_LOOKBACK = 24
ARM_SHARE_LOOKBACK = 12
# (a risk reduction first: 'relative risk reduction' is not a 'relative risk')
_MEASURE = re.compile(
    r"\b((?:(?:absolute|relative)\s+)?risk\s+reduction|"
    r"(?:vaccine(?:'s)?|protective)\s+(?:efficacy|effectiveness)|efficacy\s+of\s+the\s+vaccine|"
    r"rate ratio|odds ratio|hazard ratio|risk ratio|relative risk|mean difference|difference|"
    r"beta|β|"
    # short forms as written: 'or' is a conjunction, 'hr' an hour
    r"(?-i:ARR|RRR|VE|a?OR|RR|a?HR|IRR|MD|SMD|WMD|RD))\b", re.IGNORECASE)


class Significance(IntEnum):
    """What the numbers near a claim say about it."""

    NOT_REPORTED = 0
    SIGNIFICANT = 1
    NOT_SIGNIFICANT = 2


@dataclass(frozen=True, slots=True)
class Statistic:
    """One p-value or interval: where it starts (a char offset in the sentence), whether
    it is significant, and the direction of its estimate when an interval gives one."""

    offset: int
    significance: Significance
    direction: int = 0
    # a named ratio (RR, OR, HR, ...) or a reduction (efficacy = 1 - RR, a risk reduction):
    # by convention intervention against comparator
    ratio: bool = False
    hazard: bool = False  # a hazard ratio: of the event that ends a time to it


def _number(text: str) -> float | None:
    cleaned = text.replace(" ", "").replace("·", ".").replace(",", ".")
    try:
        return float(cleaned)
    except ValueError:
        return None


def _p_statistic(match: re.Match[str]) -> Statistic | None:
    if match["ns"]:
        return Statistic(match.start(), Significance.NOT_SIGNIFICANT)
    value = _number(match["value"])
    if value is None:
        return None
    if match["exp"]:
        value *= 10.0 ** int(match["exp"])
    op = match["op"].replace(" ", "")
    if value > 1.0:  # "p = 1.5" is not a p-value
        return None
    significant: bool | None
    if op.startswith("<") or op.startswith("≤"):
        significant = value <= ALPHA
    elif op.startswith(">") or op.startswith("≥"):
        significant = False if value >= ALPHA else None
    else:
        significant = value < ALPHA
    if significant is None:
        return None
    state = Significance.SIGNIFICANT if significant else Significance.NOT_SIGNIFICANT
    return Statistic(match.start(), state)


def _interval_statistic(match: re.Match[str], sentence: str, has_p_value: bool,
                        arm_shares: int) -> Statistic | None:
    """An interval excluding the null is significant; the null is 1 for ratios, 0 for
    differences. Unnamed all-positive intervals are read as ratios only when they
    straddle 1 (then not significant) and otherwise give no direction; unnamed intervals
    in percent are read against 0. An unnamed interval straddling 1 says nothing when the
    sentence gives a p-value: it may be a difference ('0.99 (95% CI 0.11-1.87) higher
    ... (P = 0.028)'), and the p-value is not ambiguous. `arm_shares`: how many of the
    sentence's intervals follow a share (`_share_before`)."""
    low, high = _number(match["low"]), _number(match["high"])
    if low is None or high is None:
        return None
    low, high = min(low, high), max(low, high)
    named = _MEASURE.findall(sentence[max(0, match.start() - MEASURE_LOOKBACK):match.start()])
    measure = " ".join(named[-1].lower().replace("'s", "").split()) if named else ""
    if measure in REDUCTION_MEASURES:
        # 'vaccine efficacy 59% (95% CI 51-67)', 'absolute risk reduction 2.9 percentage
        # points (95% CI 0.8 to 5.0)': the outcome is that much less likely with the
        # intervention, so an interval above 0 is a decrease
        if low <= 0.0 <= high:
            return Statistic(match.start(), Significance.NOT_SIGNIFICANT)
        return Statistic(match.start(), Significance.SIGNIFICANT, -1 if low > 0.0 else 1,
                         ratio=True)
    if measure in RATIO_MEASURES:
        null: float | None = 1.0
    elif measure in DIFFERENCE_MEASURES or low < 0:
        null = 0.0
    else:
        null = None
    share = _share_before(match, sentence)
    if null is None and arm_shares > 1 and share is not None and low <= share <= high:
        # '87.6% (95% CI 84.6 to 90.1) in the hypofractionated group and 88.9% (95% CI
        # 86.0 to 91.3) in the conventional group': each arm's share with its own
        # interval, no comparison of the arms
        return None
    own = _value_before(_TIME_BEFORE, TIME_LOOKBACK, match, sentence)
    if null is None and own is not None and low <= own <= high:
        # 'median overall survival was 11.6 months (95% CI 9.5 to 13.3) in the PCI group':
        # one arm's time with its own interval, no comparison of the arms
        return None
    if null is None and sentence[match.end():match.end() + 2].lstrip().startswith("%"):
        # '9.6% [CI 0.9 to 18.3%]': a percentage is a proportion or a difference of
        # proportions, never a ratio, so straddling 1 says nothing; its null is 0. An
        # all-positive one says nothing when the sentence gives a p-value: it may be one
        # arm's share ('66.7% (95% CI 52.9-78.6%) of the patients ... compared to 53.6%
        # (95% CI ...) (P = 0.109)'), and the p-value is not ambiguous.
        if low > 0.0 and has_p_value:
            return None
        return Statistic(match.start(), Significance.NOT_SIGNIFICANT if low <= 0.0
                         else Significance.SIGNIFICANT)
    if null is None:
        if low <= 1.0 <= high:
            return None if has_p_value else Statistic(match.start(),
                                                      Significance.NOT_SIGNIFICANT)
        return Statistic(match.start(), Significance.SIGNIFICANT)
    if low <= null <= high:
        return Statistic(match.start(), Significance.NOT_SIGNIFICANT)
    return Statistic(match.start(), Significance.SIGNIFICANT, 1 if low > null else -1,
                     ratio=null == 1.0, hazard=measure in HAZARD_MEASURES)


def _share_before(match: re.Match[str], sentence: str) -> float | None:
    """The percentage right before an interval's parenthesis ('87.6% (95% CI ...'), or
    None."""
    return _value_before(_SHARE_BEFORE, ARM_SHARE_LOOKBACK, match, sentence)


def _value_before(pattern: re.Pattern[str], lookback: int, match: re.Match[str],
                  sentence: str) -> float | None:
    """The number `pattern` finds ending right before an interval, within `lookback`
    characters of it, or None."""
    found = pattern.search(sentence[max(0, match.start() - lookback):match.start()])
    return float(found[1]) if found else None


def find_statistics(sentence: str, short_forms: Collection[str] = ()) -> list[Statistic]:
    """Every p-value and interval in a sentence, in reading order; an 'NS' the abstract
    defines (`short_forms`: 'normal saline (NS)') is no 'not significant'."""
    found = [s for m in _P_VALUE.finditer(sentence)
             if not (m["ns"] and m[0] in short_forms) and (s := _p_statistic(m))]
    has_p_value = bool(found)
    intervals = list(_INTERVAL.finditer(sentence))
    arm_shares = sum(_share_before(m, sentence) is not None for m in intervals)
    found += [s for m in intervals
              if (s := _interval_statistic(m, sentence, has_p_value, arm_shares))]
    return sorted(found, key=lambda s: s.offset)


def nearest_significance(stats: list[Statistic], offset: int) -> Statistic | None:
    """The statistic that belongs to a claim at `offset`: the first one after it (authors
    put the numbers after the claim), else the last one before it."""
    after = [s for s in stats if s.offset >= offset]
    if after:
        return after[0]
    return stats[-1] if stats else None

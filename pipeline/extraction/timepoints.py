"""Time points a text names ('at 12 months', 'two-year follow-up', '48 h'), in days, so
that an outcome's time point can be matched with a sentence's in other units."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pipeline.extraction.lexicon import COUNT_VALUES

_UNIT_DAYS = {
    **dict.fromkeys(("min", "mins", "minute", "minutes"), 1 / 1440),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 1 / 24),
    **dict.fromkeys(("d", "day", "days"), 1.0),
    **dict.fromkeys(("wk", "wks", "week", "weeks"), 7.0),
    **dict.fromkeys(("mo", "month", "months"), 365.25 / 12),
    **dict.fromkeys(("y", "yr", "yrs", "year", "years"), 365.25),
}
_DECIMAL = re.compile(r"\d+(?:\.\d+)?$")


def time_positions(words: Sequence[str], start: int = 0,
                   end: int | None = None) -> list[tuple[int, float]]:
    """(the number's token, the time point in days) for each time point named from
    `start` to `end`."""
    stop = len(words) if end is None else end
    found = []
    for i in range(start, stop - 1):
        word = words[i]
        if word in COUNT_VALUES:
            value = float(COUNT_VALUES[word])
        elif _DECIMAL.match(word):
            value = float(word)
        else:
            continue
        unit = words[i + 2] if words[i + 1] == "-" and i + 2 < stop else words[i + 1]
        if unit in _UNIT_DAYS:
            found.append((i, value * _UNIT_DAYS[unit]))
    return found


def time_points(words: Sequence[str]) -> frozenset[float]:
    """The time points words name, in days."""
    return frozenset(days for _, days in time_positions(words))


def same_time(a: float, b: float) -> bool:
    """The same time point in other units ('12 months', '1 year')."""
    return abs(a - b) <= 0.05 * max(a, b)


def shares_a_time(these: Iterable[float], those: Iterable[float]) -> bool:
    """Whether any time point of `these` is one of `those` (in days)."""
    others = list(those)
    return any(same_time(a, b) for a in these for b in others)

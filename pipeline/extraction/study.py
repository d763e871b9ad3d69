"""Study facts an abstract states about itself, read from its text (no answer key).

Only the sample size for now: the number after "we assigned / analysed / enrolled /
randomised" ("we assigned 2,654 women ...", "We analysed 1,203 adults ..."). The step
features of SPEC §4 use it to weigh what large and small studies report (publication bias
concentrates in small studies), so it must be cheap: one regular-expression search.
"""

from __future__ import annotations

import re

from pipeline.model import Abstract

SAMPLE_SIZE = re.compile(
    r"\b(?:assigned|allocated|analy[sz]ed|enrolled|randomi[sz]ed|recruited|included)\s+"
    r"(\d{1,3}(?:,\d{3})+|\d+)\b")
MAX_SAMPLE_SIZE = 10_000_000  # larger numbers are not head counts (years, IDs, typos)


def sample_size(abstract: Abstract) -> int | None:
    """The first stated number of participants in the abstract text, or None when the
    text states none (or only an implausible one: 0 or above MAX_SAMPLE_SIZE)."""
    match = SAMPLE_SIZE.search(abstract.text)
    if match is None:
        return None
    size = int(match.group(1).replace(",", ""))
    return size if 0 < size <= MAX_SAMPLE_SIZE else None

"""Noisy-OR edge belief (paper Eq. noisy-or, Lemma 1)."""

from __future__ import annotations

import math
from collections.abc import Iterable

# Lemma 1 says w < 1, but 1 - prod(1 - s_j) rounds to 1.0 once the product falls below
# 2**-53; beliefs are capped at the largest double below 1 (the Cypher applies the same cap).
MAX_BELIEF = math.nextafter(1.0, 0.0)


def noisy_or(confidences: Iterable[float]) -> float:
    """w = 1 - prod_j (1 - s_j); in [0, 1) whenever every s_j is in [0, 1).

    Confidences are multiplied in the order given; both stores pass an edge's PMIDs in
    first-seen order, so their beliefs agree to the bit (the parity test).
    """
    remaining = 1.0
    for s in confidences:
        remaining *= 1.0 - s
    return min(1.0 - remaining, MAX_BELIEF)

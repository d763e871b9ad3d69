"""Route strength of a causal path (paper Eq. route-strength)."""

from __future__ import annotations

import math
from collections.abc import Sequence

RHO = 1.0
MAX_HOPS = 2


def hop_discounts(rho: float = RHO, max_hops: int = MAX_HOPS) -> list[float]:
    """exp(-rho * k) for k = 0..max_hops, computed once in Python and handed to Cypher so
    both stores multiply by bit-identical factors."""
    return [math.exp(-rho * k) for k in range(max_hops + 1)]


def route_strength(beliefs: Sequence[float], rho: float = RHO) -> float:
    """Str = (prod_i w_i) * exp(-rho k): in (0, 1] for beliefs in (0, 1)."""
    product = 1.0
    for w in beliefs:
        product *= w
    return product * hop_discounts(rho, len(beliefs))[len(beliefs)]


def path_order_key(strength: float, nodes: Sequence[str],
                   polarities: Sequence[int]) -> tuple[float, tuple[str, ...], tuple[int, ...]]:
    """Strongest first; ties broken by node ids then polarities, as the Cypher orders them."""
    return (-strength, tuple(nodes), tuple(polarities))

"""Energy functional E(S_t) of the explanation subgraph (paper Eq. energy, SPEC §4)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pipeline.inference.posterior import Posterior, entropy
from pipeline.model import EdgeBelief

LAMBDA_U = 0.1
LAMBDA_V = 0.1
TAU_Q = 0.3

PairBeliefs = Mapping[tuple[str, str], Mapping[int, float]]


@dataclass(frozen=True, slots=True)
class EnergyTerms:
    log_posterior: float
    uncertainty: float
    violation: float
    total: float


def pair_polarity_entropy(beliefs_by_polarity: Mapping[int, float]) -> float:
    """H(theta_e): entropy of the belief-weighted polarity distribution of an entity pair.
    A pair whose beliefs are all zero carries no polarity information: entropy 0."""
    total = sum(beliefs_by_polarity.values())
    if total <= 0.0:
        return 0.0
    return entropy([w / total for w in beliefs_by_polarity.values()])


def energy(posterior: Posterior, explanation: Sequence[EdgeBelief], pairs: PairBeliefs,
           lambda_u: float = LAMBDA_U, lambda_v: float = LAMBDA_V,
           tau_q: float = TAU_Q) -> EnergyTerms:
    """E = -log q(L_hat) + lambda_U sum_e H(theta_e) + lambda_V sum_e max(0, tau_q - w_e),
    over the distinct edges of the top paths."""
    log_term = -math.log(posterior.top_probability)
    uncertainty = sum(pair_polarity_entropy(pairs.get((e.head, e.tail), {e.polarity: e.belief}))
                      for e in explanation)
    violation = sum(max(0.0, tau_q - e.belief) for e in explanation)
    total = log_term + lambda_u * uncertainty + lambda_v * violation
    return EnergyTerms(log_term, uncertainty, violation, total)

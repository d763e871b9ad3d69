"""Label posterior over the top paths (paper Eq. boltzmann, posterior) and KL (Eq. kl)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.model import CausalPath, Label, Polarity, label_index, label_set

BETA = 1.5
EPSILON = 0.05
TOP_K = 5
N_LABELS = 3
EPS0 = EPSILON / N_LABELS  # every label keeps at least this mass (Proposition 1)


@dataclass(frozen=True, slots=True)
class Posterior:
    """q(L | Q) over the three answer labels; uninformed means no path exists (NoEvidence)."""

    probs: tuple[float, float, float]
    labels: tuple[Label, Label, Label]
    informed: bool

    @property
    def label(self) -> Label:
        """argmax q; ties go to the earlier label in `labels`. NoEvidence when uninformed."""
        if not self.informed:
            return Label.NO_EVIDENCE
        return self.labels[max(range(N_LABELS), key=lambda i: (self.probs[i], -i))]

    @property
    def top_probability(self) -> float:
        return max(self.probs)

    def as_dict(self) -> dict[str, float]:
        return {label.value: p for label, p in zip(self.labels, self.probs, strict=True)}


def uniform_posterior(direction: Polarity | None) -> Posterior:
    """q_0: the uniform prior, also the state of a query with no path yet."""
    third = 1.0 / N_LABELS
    return Posterior((third, third, third), label_set(direction), informed=False)


def label_posterior(paths: Sequence[CausalPath], direction: Polarity | None,
                    beta: float = BETA, epsilon: float = EPSILON,
                    top_k: int = TOP_K) -> Posterior:
    """q(L) = sum_pi q(L | pi) q(pi), q(pi) ∝ Str^beta over the top_k paths given (strongest
    first), q(L | pi) = (1 - eps) onehot + eps / 3. No path (or zero strength) -> uniform,
    uninformed."""
    top = [p for p in paths[:top_k] if p.strength > 0.0]
    weights = [p.strength**beta for p in top]
    total = sum(weights)
    if not top or total <= 0.0:
        return uniform_posterior(direction)
    probs = [epsilon / N_LABELS] * N_LABELS
    for path, weight in zip(top, weights, strict=True):
        probs[label_index(path.polarity, direction)] += (1.0 - epsilon) * weight / total
    return Posterior((probs[0], probs[1], probs[2]), label_set(direction), informed=True)


def kl_divergence(p: Sequence[float], q: Sequence[float]) -> float:
    """D_KL(p || q) in nats; q must be positive where p is. Rounding can push the sum of
    near-equal distributions a hair below zero; KL is non-negative (Gibbs), so clamp."""
    return max(0.0, sum(pi * math.log(pi / qi) for pi, qi in zip(p, q, strict=True)
                        if pi > 0.0))


def entropy(probs: Sequence[float]) -> float:
    """Shannon entropy in nats of a distribution (zeros contribute nothing)."""
    return -sum(p * math.log(p) for p in probs if p > 0.0)

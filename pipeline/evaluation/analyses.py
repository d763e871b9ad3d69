"""The paper's analyses beyond the tables (issue 16, item 3), over recorded steps: the
posterior's calibration (expected calibration error, reliability bins) and the PRM's
reward on correct vs incorrect steps. Pure: steps in, numbers out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.calibration import calibration_curve

from pipeline.evaluation.replay import Outcome, Runs
from pipeline.model import Label

BINS = 10


@dataclass(frozen=True)
class Reliability:
    """Equal-width confidence bins (non-empty ones): mean confidence, accuracy, count."""

    confidence: tuple[float, ...]
    accuracy: tuple[float, ...]
    count: tuple[int, ...]
    ece: float
    steps: int


def _informed(runs: Runs, truth: Mapping[str, str],
              classes: Sequence[str]) -> list[tuple[float, bool, float | None]]:
    """(top posterior probability, label correct, reward) for every informed step."""
    return [(max(s.posterior.values()), s.label == truth[q], s.reward)
            for q, steps in sorted(runs.items()) if truth[q] in classes
            for s in steps if s.informed and s.label != Label.NO_EVIDENCE]


def reliability(runs: Runs, truth: Mapping[str, str], classes: Sequence[str],
                bins: int = BINS) -> Reliability:
    """Calibration of the argmax label's probability over every informed step: ECE is the
    count-weighted mean |accuracy - confidence| over the bins (sklearn's bins)."""
    rows = _informed(runs, truth, classes)
    if not rows:
        raise ValueError("no informed steps to assess")
    conf = np.array([r[0] for r in rows])
    correct = np.array([r[1] for r in rows], dtype=float)
    accuracy, confidence = calibration_curve(correct, conf, n_bins=bins, strategy="uniform")
    # sklearn drops empty bins; the counts of the kept ones, in the same order
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.searchsorted(edges[1:-1], conf, side="right")
    counts = np.bincount(index, minlength=bins)
    counts = counts[counts > 0]
    ece = float(np.sum(counts * np.abs(accuracy - confidence)) / len(rows))
    return Reliability(tuple(map(float, confidence)), tuple(map(float, accuracy)),
                       tuple(int(c) for c in counts), ece, len(rows))


@dataclass(frozen=True)
class RewardGap:
    correct: float
    incorrect: float
    n_correct: int
    n_incorrect: int

    @property
    def gap(self) -> float:
        return self.correct - self.incorrect


def reward_gap(runs: Runs, truth: Mapping[str, str], classes: Sequence[str]) -> RewardGap:
    """Mean PRM reward on steps whose label is right vs wrong (informed steps only)."""
    rows = [(ok, r) for _, ok, r in _informed(runs, truth, classes) if r is not None]
    right = [r for ok, r in rows if ok]
    wrong = [r for ok, r in rows if not ok]
    if not right or not wrong:
        raise ValueError("need scored steps with both right and wrong labels")
    return RewardGap(float(np.mean(right)), float(np.mean(wrong)), len(right), len(wrong))


def pair_margin(runs: Runs, truth: Mapping[str, str]) -> tuple[float, float, int]:
    """(mean r_i - r_j, share with r_i > r_j, pairs) over the preference pairs of `runs`
    (step i right, step j wrong, same query), from the recorded rewards."""
    from pipeline.stopping.prm import preference_pairs

    pairs = preference_pairs(runs, truth)
    if not pairs:
        raise ValueError("no preference pairs")
    diffs = np.array([(i.reward or 0.0) - (j.reward or 0.0) for i, j in pairs])
    return float(diffs.mean()), float(np.mean(diffs > 0)), len(pairs)


@dataclass(frozen=True)
class GroundingGroup:
    queries: int
    drift: float
    abstracts: float


def grounding_split(outcomes: Sequence[Outcome], grounded: Mapping[str, bool]
                    ) -> dict[bool, GroundingGroup]:
    """Drift and abstracts read per query (a fixed budget's outcomes), for the queries
    whose two endpoints both ground to MeSH (True) and the rest (False)."""
    groups: dict[bool, GroundingGroup] = {}
    for flag in (True, False):
        chosen = [o for o in outcomes if grounded[o.query_id] is flag]
        if chosen:
            groups[flag] = GroundingGroup(len(chosen),
                                          float(np.mean([o.drifted for o in chosen])),
                                          float(np.mean([o.stop for o in chosen])))
    return groups

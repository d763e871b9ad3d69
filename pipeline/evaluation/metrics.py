"""The metrics of SPEC §5 over replayed outcomes, with maintained libraries where they
exist: scipy.stats for the bootstrap CI and the exact McNemar (binomial) test,
sklearn.metrics for macro-F1. Pure: outcomes in, numbers out."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats
from sklearn.metrics import f1_score

from pipeline.evaluation.replay import Outcome, Runs

RESAMPLES = 10_000
CONFIDENCE = 0.95


@dataclass(frozen=True)
class PolicyMetrics:
    """One policy's row: accuracies are shares in [0, 1]; regret is averaged over the
    queries that held the true label at some step; mcnemar_p is None without a reference."""

    n: int
    accuracy: float
    ci_low: float
    ci_high: float
    macro_f1: float
    per_class: dict[str, float]
    mean_steps: float
    drift_rate: float
    regret: float
    median_first_correct: float | None
    mcnemar_p: float | None


def bootstrap_ci(correct: Sequence[bool], resamples: int = RESAMPLES, seed: int = 0,
                 confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Percentile bootstrap CI of the accuracy; seeded, so a report is reproducible."""
    data = np.asarray(correct, dtype=float)
    if data.min() == data.max():  # every resample is the same: the CI is a point
        return float(data[0]), float(data[0])
    result = stats.bootstrap((data,), np.mean, n_resamples=resamples,
                             confidence_level=confidence, method="percentile",
                             random_state=np.random.default_rng(seed))
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def mcnemar_exact(first: Sequence[bool], second: Sequence[bool]) -> float:
    """Two-sided exact McNemar p: a binomial test on the discordant pairs."""
    if len(first) != len(second):
        raise ValueError("McNemar needs paired outcomes on the same queries")
    only_first = sum(a and not b for a, b in zip(first, second, strict=True))
    only_second = sum(b and not a for a, b in zip(first, second, strict=True))
    if only_first + only_second == 0:
        return 1.0
    return float(stats.binomtest(only_first, only_first + only_second, 0.5).pvalue)


def summarise(outcomes: Sequence[Outcome], classes: Sequence[str],
              reference: Sequence[Outcome] | None = None, resamples: int = RESAMPLES,
              seed: int = 0) -> PolicyMetrics:
    """The row of one policy on one set of queries; `reference` (same queries, same
    order) is what McNemar compares against (k = 20 in the paper)."""
    if not outcomes:
        raise ValueError("no outcomes to summarise")
    correct = [o.correct for o in outcomes]
    truths = [o.truth for o in outcomes]
    labels = [o.label for o in outcomes]
    per_class = {c: float(np.mean([o.correct for o in outcomes if o.truth == c]))
                 for c in classes if c in truths}
    regrets = [o.regret for o in outcomes if o.regret is not None]
    firsts = [o.first_correct for o in outcomes if o.first_correct is not None]
    low, high = bootstrap_ci(correct, resamples, seed)
    p = None
    if reference is not None:
        if [o.query_id for o in reference] != [o.query_id for o in outcomes]:
            raise ValueError("the reference outcomes are not on the same queries")
        p = mcnemar_exact(correct, [o.correct for o in reference])
    return PolicyMetrics(
        n=len(outcomes),
        accuracy=float(np.mean(correct)),
        ci_low=low,
        ci_high=high,
        macro_f1=float(f1_score(truths, labels, labels=list(classes), average="macro",
                                zero_division=0)),
        per_class=per_class,
        mean_steps=float(np.mean([o.stop for o in outcomes])),
        drift_rate=float(np.mean([o.drifted for o in outcomes])),
        regret=float(np.mean(regrets)) if regrets else 0.0,
        median_first_correct=float(statistics.median(firsts)) if firsts else None,
        mcnemar_p=p,
    )


def class_drift(outcomes: Sequence[Outcome], cls: str) -> float | None:
    """Of the class's queries that held the true label by their stop, the share wrong at
    the stop (the paper: 46.9% of NoEffect vs 10.0% of Beneficial at k = 20)."""
    reached = [o for o in outcomes if o.truth == cls and o.first_correct is not None
               and o.first_correct <= o.stop]
    return float(np.mean([o.drifted for o in reached])) if reached else None


def posterior_curves(runs: Runs, truth: Mapping[str, str], label: str, classes: Sequence[str],
                     budget: int) -> dict[str, list[float]]:
    """Per true class, the mean q_t(label) at t = 1..budget. A run that ended early keeps
    its last posterior (its state no longer changes), so every query counts at every t."""
    curves: dict[str, list[float]] = {}
    for cls in classes:
        rows = []
        for query_id, steps in runs.items():
            if truth.get(query_id) != cls or not steps:
                continue
            values = [s.posterior[label] for s in steps][:budget]
            rows.append(values + [values[-1]] * (budget - len(values)))
        if rows:
            curves[cls] = [float(v) for v in np.mean(np.asarray(rows), axis=0)]
    return curves

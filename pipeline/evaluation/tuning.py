"""Threshold tuning on the validation split only (SPEC §5), by grid search.

Each policy's thresholds are tuned on their own: the objective is macro-F1 over the
evaluated classes (the split is class-balanced, and accuracy alone would reward a policy
that reads on until the Beneficial-skewed literature wins); ties go to fewer mean steps,
then to the first grid point. The result is frozen into a JSON config with the
validation scores, and the test split is never looked at.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from sklearn.metrics import f1_score

from pipeline.evaluation.replay import (
    PAPER_THRESHOLDS,
    Runs,
    Thresholds,
    policies,
    stop_outcome,
)
from pipeline.stopping.policies import BUDGET, StoppingPolicy

GRIDS: dict[str, dict[str, tuple[float, ...]]] = {
    "DACG": {"delta": (0.001, 0.003, 0.01, 0.03, 0.1), "alpha": (0.1, 0.2, 0.3, 0.5, 1.0),
             "alpha_c": (0.02, 0.05, 0.1, 0.2)},
    "KL-only": {"kl_delta": (0.001, 0.003, 0.01, 0.03, 0.1)},
    "PRM-only": {"prm_alpha": (0.1, 0.2, 0.3, 0.5, 1.0)},
    "Density stability": {"density_epsilon": (0.0, 0.001, 0.01, 0.05, 0.1)},
    "Path discovery": {"path_window": (1, 2, 3, 4, 5)},
    "Evidence plateau": {"plateau_growth": (0.02, 0.05, 0.1, 0.2, 0.3, 0.5),
                         "plateau_window": (1, 2, 3, 4)},
}


def score(policy: StoppingPolicy, runs: Runs, truth: Mapping[str, str],
          classes: Sequence[str], budget: int = BUDGET) -> tuple[float, float]:
    """(macro-F1, mean steps) of a policy on the given runs."""
    outcomes = [stop_outcome(policy, runs[q], truth[q], budget) for q in sorted(runs)]
    f1 = f1_score([o.truth for o in outcomes], [o.label for o in outcomes],
                  labels=list(classes), average="macro", zero_division=0)
    return float(f1), float(np.mean([o.stop for o in outcomes]))


def _grid(values: Mapping[str, Iterable[float]]) -> list[dict[str, Any]]:
    names = list(values)
    return [dict(zip(names, point, strict=True))
            for point in itertools.product(*(values[n] for n in names))]


def tune(runs: Runs, truth: Mapping[str, str], classes: Sequence[str],
         start: Thresholds = PAPER_THRESHOLDS, grids: Mapping[str, Mapping[str, Iterable[float]]]
         = GRIDS, budget: int = BUDGET,
         on_point: Callable[[], None] | None = None) -> tuple[Thresholds, dict[str, Any]]:
    """The best thresholds per policy on `runs` (the validation split), and what each
    reached there: {policy: {"thresholds", "macro_f1", "mean_steps", "grid_points"}}."""
    if not runs:
        raise ValueError("no validation runs to tune on")
    tuned = start
    results: dict[str, Any] = {}
    for name, grid in grids.items():
        best: tuple[float, float, int] | None = None
        best_point: dict[str, Any] = {}
        points = _grid(grid)
        for index, point in enumerate(points):
            candidate = policies(replace(start, **point))[name]
            f1, steps = score(candidate, runs, truth, classes, budget)
            key = (-f1, steps, index)
            if best is None or key < best:
                best, best_point = key, point
            if on_point:
                on_point()
        assert best is not None
        tuned = replace(tuned, **best_point)
        results[name] = {"thresholds": best_point, "macro_f1": round(-best[0], 6),
                         "mean_steps": round(best[1], 6), "grid_points": len(points)}
    return tuned, results


def grid_size(grids: Mapping[str, Mapping[str, Iterable[float]]] = GRIDS) -> int:
    return sum(len(_grid(grid)) for grid in grids.values())

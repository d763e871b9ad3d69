"""Graph-structural stopping baselines (paper §"Baselines"; docs/evaluation.md).

They watch the evolving graph rather than the label posterior, to test whether structural
convergence of the graph suffices for stopping. Each reads only the recorded graph
statistics and top paths of the steps it is given, and, like every rule (SPEC §4), fires
only once the posterior is informed by a path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.trajectory import StepRecord


@dataclass(frozen=True)
class DensityStability:
    """Stop when the graph density changed by at most `epsilon` since the previous step."""

    epsilon: float = 0.0
    name: str = field(default="density", init=False)

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        if len(steps) < 2 or not steps[-1].informed:
            return None
        change = abs(steps[-1].graph["density"] - steps[-2].graph["density"])
        return "density_stable" if change <= self.epsilon else None


def _path_keys(step: StepRecord) -> set[tuple[str, ...]]:
    return {tuple(path["nodes"]) for path in step.top_paths}


@dataclass(frozen=True)
class PathDiscovery:
    """Stop when the last `window` steps found no causal path (an E1 -> E2 node sequence
    among the top paths) that no earlier step had shown."""

    window: int = 1
    name: str = field(default="path_discovery", init=False)

    def __post_init__(self) -> None:
        if self.window < 1:
            raise ValueError(f"path discovery needs a window of >= 1 steps, got {self.window}")

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        if len(steps) <= self.window or not steps[-1].informed:
            return None
        seen: set[tuple[str, ...]] = set()
        for step in steps[:-self.window]:
            seen |= _path_keys(step)
        if not seen:
            return None
        recent: set[tuple[str, ...]] = set()
        for step in steps[-self.window:]:
            recent |= _path_keys(step)
        return "no_new_paths" if recent <= seen else None


@dataclass(frozen=True)
class EvidencePlateau:
    """Stop when the evidence in the graph grew by less than `growth` (a fraction) over
    the last `window` steps: (E_t - E_{t-w}) / E_{t-w} < growth."""

    growth: float = 0.1
    window: int = 3
    name: str = field(default="evidence_plateau", init=False)

    def __post_init__(self) -> None:
        if self.window < 1:
            raise ValueError(f"an evidence plateau needs a window of >= 1, got {self.window}")

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        if len(steps) <= self.window or not steps[-1].informed:
            return None
        before = steps[-1 - self.window].graph["evidence"]
        if before <= 0:
            return None
        rate = (steps[-1].graph["evidence"] - before) / before
        return "evidence_plateau" if rate < self.growth else None

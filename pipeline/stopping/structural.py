"""Graph-structural stopping baselines (paper §"Baselines"; docs/evaluation.md).

They watch the evolving graph rather than the label posterior, to test whether structural
convergence of the graph suffices for stopping. Each reads only the recorded graph
statistics and top paths of the steps it is given, and, like every rule (SPEC §4), fires
only once the posterior is informed by a path.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from pipeline.trajectory import StepRecord


@dataclass(frozen=True)
class DensityStability:
    """Stop when the graph density changed by at most `epsilon` since the previous step.

    Args:
        epsilon: the largest change in density (edges / possible edges, a fraction) that
            counts as stable.
    """

    epsilon: float = 0.0
    name: str = field(default="density", init=False)

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        if not _past_window(steps, 1):
            return None
        change = abs(steps[-1].graph["density"] - steps[-2].graph["density"])
        return "density_stable" if change <= self.epsilon else None


class _OverWindow(ABC):
    """A rule over the last `window` steps (>= 1), checked when it is made: it judges the
    window's steps against the steps before it, once both exist and the posterior is
    informed."""

    window: int
    requirement: ClassVar[str]  # the error's opening words when the window is too short

    def __post_init__(self) -> None:
        if self.window < 1:
            raise ValueError(f"{self.requirement}, got {self.window}")

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        if not _past_window(steps, self.window):
            return None
        return self.judge(steps[:-self.window], steps[-self.window:])

    @abstractmethod
    def judge(self, earlier: Sequence[StepRecord],
              recent: Sequence[StepRecord]) -> str | None:
        """The stop reason, or None, from the steps before the window and those in it."""


def _past_window(steps: Sequence[StepRecord], window: int) -> bool:
    """Whether a rule over the last `window` steps may fire at steps[-1]: a step before the
    window to compare with, and an informed posterior (SPEC §4)."""
    return len(steps) > window and steps[-1].informed


def _path_keys(step: StepRecord) -> set[tuple[str, ...]]:
    return {tuple(path["nodes"]) for path in step.top_paths}


@dataclass(frozen=True)
class PathDiscovery(_OverWindow):
    """Stop when the last `window` steps found no causal path (an E1 -> E2 node sequence
    among the top paths) that no earlier step had shown.

    Args:
        window: how many recent steps (retrieval steps, >= 1) must bring no new path.
    """

    window: int = 1
    name: str = field(default="path_discovery", init=False)
    requirement: ClassVar[str] = "path discovery needs a window of >= 1 steps"

    def judge(self, earlier: Sequence[StepRecord],
              recent: Sequence[StepRecord]) -> str | None:
        seen = set().union(*map(_path_keys, earlier))
        if not seen:
            return None
        return "no_new_paths" if set().union(*map(_path_keys, recent)) <= seen else None


@dataclass(frozen=True)
class EvidencePlateau(_OverWindow):
    """Stop when the evidence in the graph grew by less than `growth` (a fraction) over
    the last `window` steps: (E_t - E_{t-w}) / E_{t-w} < growth.

    Args:
        growth: the relative growth of the evidence count (a fraction: 0.1 is 10%) below
            which the evidence has plateaued.
        window: how many steps (>= 1) the growth is measured over.
    """

    growth: float = 0.1
    window: int = 3
    name: str = field(default="evidence_plateau", init=False)
    requirement: ClassVar[str] = "an evidence plateau needs a window of >= 1"

    def judge(self, earlier: Sequence[StepRecord],
              recent: Sequence[StepRecord]) -> str | None:
        before = earlier[-1].graph["evidence"]
        if before <= 0:
            return None
        rate = (recent[-1].graph["evidence"] - before) / before
        return "evidence_plateau" if rate < self.growth else None

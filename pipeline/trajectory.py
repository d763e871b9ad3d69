"""One JSON object per retrieval step (SPEC §6), so any stopping rule can be replayed
offline from a recording, without the store or the source. Nothing secret is written."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class StepRecord:
    """Everything known after step `step` of the run for query `query_id`.

    posterior maps label -> probability in label order; informed is False while no path
    exists (the label is then NoEvidence); kl is D_KL(q_t || q_{t-1}); rules says which
    stopping rules would fire at this step (computed with the thresholds in force)."""

    query_id: str
    step: int
    retrieved_pmids: list[str]
    new_evidence: list[dict[str, Any]]
    graph: dict[str, float]
    top_paths: list[dict[str, Any]]
    posterior: dict[str, float]
    informed: bool
    label: str
    kl: float
    energy: dict[str, float]
    features: dict[str, float]
    feature_version: str
    reward: float | None = None
    rules: dict[str, bool] = field(default_factory=dict)
    expanded: list[str] = field(default_factory=list)

    @property
    def probs(self) -> tuple[float, ...]:
        return tuple(self.posterior.values())


def write_steps(path: Path, steps: Iterable[StepRecord], append: bool = True) -> None:
    """Append steps as JSON lines (one run may be written step by step as it goes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a" if append else "w", encoding="utf-8") as out:
        for step in steps:
            out.write(json.dumps(asdict(step), sort_keys=True) + "\n")


def read_steps(path: Path) -> Iterator[StepRecord]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield StepRecord(**json.loads(line))


def read_trajectories(path: Path) -> dict[str, list[StepRecord]]:
    """Steps grouped by query, in step order."""
    runs: dict[str, list[StepRecord]] = {}
    for step in read_steps(path):
        runs.setdefault(step.query_id, []).append(step)
    for steps in runs.values():
        steps.sort(key=lambda s: s.step)
    return runs

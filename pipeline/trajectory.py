"""One JSON object per retrieval step (SPEC §6): `StepRecord`, everything known after a
step, so any stopping rule can be replayed offline from a recording, without the store or
the source. Nothing secret is written. Reading and writing recordings is
`pipeline/recordings.py`."""

from __future__ import annotations

from dataclasses import dataclass, field
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

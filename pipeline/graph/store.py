"""The interface every graph backend implements, and the batch preparation they share.

Rows are validated and aggregated in Python before any write, so a bad row rejects the
whole call with nothing written, and each (edge, PMID) reaches the store at most once per
batch carrying its highest confidence (SPEC §2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pipeline.model import (
    CausalPath,
    EdgeBelief,
    Evidence,
    EvidenceItem,
    GraphStats,
    InvalidEvidence,
)

EdgeKey = tuple[str, str, int]

DEFAULT_NAMESPACE = "kg"
BATCH_SIZE = 10_000


class StoreUnavailable(RuntimeError):
    """The backend cannot be reached or refused us; the message is one line and has no secret."""


@dataclass(frozen=True, slots=True)
class WriteSummary:
    rows: int
    new_edges: int
    new_evidence: int


class GraphStore(Protocol):
    """What the controller needs from a graph, whatever holds it."""

    def write(self, namespace: str, evidence: Sequence[Evidence]) -> WriteSummary:
        """Upsert one batch atomically; beliefs are recomputed by noisy-OR over PMIDs."""
        ...

    def paths(self, namespace: str, source: str, target: str,
              limit: int = 5) -> list[CausalPath]:
        """Direct and two-hop paths source -> target, strongest first, at most `limit`."""
        ...

    def edges(self, namespace: str, pairs: Iterable[tuple[str, str]]) -> list[EdgeBelief]:
        """Every polarity's edge between each (head, tail) pair given."""
        ...

    def evidence(self, namespace: str,
                 edges: Iterable[EdgeKey]) -> dict[EdgeKey, list[EvidenceItem]]:
        """The per-PMID evidence (confidence, sentence, year) of each (head, tail, polarity)."""
        ...

    def stats(self, namespace: str) -> GraphStats:
        ...

    def drop(self, namespace: str) -> None:
        """Remove a namespace entirely (a run's scratch graph)."""
        ...

    def namespaces(self) -> list[str]:
        """Every namespace holding an entity, in name order."""
        ...

    def close(self) -> None:
        ...


def check_namespace(namespace: str) -> str:
    if not namespace or len(namespace) > 100 or not namespace.replace("-", "").replace(
            "_", "").replace(".", "").isalnum():
        raise InvalidEvidence(
            f"namespace must be 1-100 letters, digits, '-', '_' or '.', got {namespace!r}")
    return namespace


def strongest_per_edge_pmid(evidence: Iterable[Evidence]) -> list[Evidence]:
    """Keep, for each (edge, PMID), the row with the highest confidence (first on ties)."""
    best: dict[tuple[str, str, int, str], Evidence] = {}
    for row in evidence:
        key = (*row.edge_key, row.pmid)
        kept = best.get(key)
        if kept is None or row.confidence > kept.confidence:
            best[key] = row
    return list(best.values())


def batches(rows: Sequence[Evidence], size: int = BATCH_SIZE) -> Iterable[Sequence[Evidence]]:
    for start in range(0, len(rows), size):
        yield rows[start:start + size]

"""Read pre-extracted evidence (one JSON object per line) and write it in batches.

The whole file is validated before the first write, so a bad line leaves the graph as it
was. Each batch is one transaction and the upsert is idempotent, so an ingest that is
killed part-way and run again ends with the same graph as one that was never interrupted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from pipeline.graph.store import BATCH_SIZE, GraphStore, WriteSummary, batches
from pipeline.jsonl import parse_jsonl
from pipeline.model import Evidence, InvalidEvidence, make_evidence, shown

FIELDS = ("head", "tail", "polarity", "confidence", "pmid")
OPTIONAL = ("sentence", "extractor", "year", "step")


def parse_evidence_row(row: object) -> Evidence:
    """One evidence line's JSON value, validated field by field (pipeline.model)."""
    if not isinstance(row, dict):
        raise InvalidEvidence("each line must be a JSON object")
    missing = [name for name in FIELDS if name not in row]
    if missing:
        raise InvalidEvidence(f"missing field(s) {', '.join(missing)}")
    unknown = sorted(set(row) - set(FIELDS) - set(OPTIONAL))
    if unknown:
        raise InvalidEvidence(f"unknown field(s) {', '.join(map(shown, unknown))}")
    return make_evidence(**row)


def read_evidence(path: Path) -> list[Evidence]:
    """Every row of a JSONL evidence file, or InvalidEvidence naming the first bad line."""
    evidence = parse_jsonl(path, parse_evidence_row, InvalidEvidence)
    if not evidence:
        raise InvalidEvidence(f"{path}: no evidence rows")
    return evidence


def write_in_batches(store: GraphStore, namespace: str, evidence: Sequence[Evidence],
                     batch_size: int = BATCH_SIZE,
                     on_batch: Callable[[int], None] | None = None) -> WriteSummary:
    """Write batch after batch, one transaction each; returns the summed summary."""
    rows = new_edges = new_evidence = 0
    for batch in batches(evidence, batch_size):
        summary = store.write(namespace, batch)
        rows += summary.rows
        new_edges += summary.new_edges
        new_evidence += summary.new_evidence
        if on_batch:
            on_batch(len(batch))
    return WriteSummary(rows=rows, new_edges=new_edges, new_evidence=new_evidence)

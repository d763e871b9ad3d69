"""Record every query's full trajectory (budget B, no stopping) so that every stopping rule
can later be applied offline to the same evidence (SPEC §5).

Recording appends one query at a time to a JSONL file and skips queries already in it, so
an interrupted recording continues where it stopped. Each query's scratch graph is dropped
once recorded: the record holds everything the replay needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from pipeline.controller import BUDGET, Controller, Extractor, RewardModel
from pipeline.graph.store import GraphStore
from pipeline.retrieval.source import LiteratureSource
from pipeline.simulation.literature import SimQuery
from pipeline.trajectory import read_steps, write_steps


def recorded_queries(path: Path) -> set[str]:
    """Queries already complete in a recording (a query is written only when finished)."""
    return {step.query_id for step in read_steps(path)} if path.is_file() else set()


def record(queries: Sequence[SimQuery], out: Path, store: GraphStore, source: LiteratureSource,
           extractor: Extractor, reward_model: RewardModel | None = None,
           budget: int = BUDGET, on_query: Callable[[SimQuery], None] | None = None) -> int:
    """Record the queries not yet in `out`; returns how many were recorded now."""
    done = recorded_queries(out)
    recorded = 0
    for sim in queries:
        if sim.id in done:
            continue
        run = Controller(store, source, extractor, None, reward_model, budget).run(
            sim.query(), sim.id)
        write_steps(out, run.steps)
        store.drop(run.run_id)
        recorded += 1
        if on_query:
            on_query(sim)
    return recorded

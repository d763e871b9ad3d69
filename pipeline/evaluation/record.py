"""Record every query's full trajectory (budget B, no stopping) so that every stopping rule
can later be applied offline to the same evidence (SPEC §5).

Recording appends one whole query at a time (one write call) and skips queries already in
the file, so an interrupted recording continues where it stopped and redoes nothing.
Queries may run in several worker processes, each with its own embedded store, source and
extractor; runs are written in query order, so the file does not depend on the number of
workers. Each query's scratch graph is dropped once recorded: the record holds everything
the replay needs.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.controller import Controller
from pipeline.graph.embedded_store import EmbeddedStore
from pipeline.model import Query
from pipeline.recordings import drop_torn_tail, read_steps, write_steps
from pipeline.retrieval.source import LiteratureSource
from pipeline.stopping.policies import BUDGET, dacg_policy
from pipeline.stopping.thresholds import load_thresholds
from pipeline.trajectory import StepRecord


@dataclass(frozen=True)
class BenchmarkQuery:
    """A query to record, with its split (the answer key stays out of the run)."""

    id: str
    query: Query
    split: str


Opener = Callable[[str], tuple[list[BenchmarkQuery], LiteratureSource]]
"""Opens a benchmark spec (`pipeline.benchmarks.open_benchmark`): each worker process opens
its own copy, and evaluation never imports the benchmarks' sources itself."""


def recorded_queries(path: Path) -> set[str]:
    """Queries already complete in a recording (a query is written only when finished)."""
    return {step.query_id for step in read_steps(path)} if path.is_file() else set()


class _Worker:
    """One process's store, source and extractor, opened once from the benchmark spec."""

    def __init__(self, opener: Opener, spec: str, budget: int,
                 opened: tuple[list[BenchmarkQuery], LiteratureSource] | None = None) -> None:
        from pipeline.extraction.extractor import default_extractor

        queries, self.source = opened or opener(spec)
        self.queries = {q.id: q for q in queries}
        self.store = EmbeddedStore()
        self.extractor = default_extractor()
        self.budget = budget
        self.rules = dacg_policy(load_thresholds())

    def run(self, query_id: str) -> list[StepRecord]:
        query = self.queries[query_id]
        run = Controller(self.store, self.source, self.extractor, None, None, self.budget,
                         rules=self.rules).run(query.query, query.id)
        self.store.drop(run.run_id)
        return run.steps


_worker: _Worker | None = None


def _start_worker(opener: Opener, spec: str, budget: int) -> None:
    global _worker
    _worker = _Worker(opener, spec, budget)


def _run_in_worker(query_id: str) -> list[StepRecord]:
    assert _worker is not None, "worker process not initialised"
    return _worker.run(query_id)


def record(spec: str, chosen: Sequence[BenchmarkQuery], out: Path, budget: int = BUDGET,
           jobs: int = 1, on_query: Callable[[str], None] | None = None,
           opened: tuple[list[BenchmarkQuery], LiteratureSource] | None = None, *,
           opener: Opener) -> int:
    """Record the chosen queries not yet in `out`; returns how many were recorded now.
    Each worker opens `spec` with `opener`; `opened` is the benchmark already opened from
    `spec` (reused when jobs == 1)."""
    drop_torn_tail(out)
    done = recorded_queries(out)
    pending = [q.id for q in chosen if q.id not in done]
    if not pending:
        return 0
    if jobs <= 1:
        worker = _Worker(opener, spec, budget, opened)
        for query_id in pending:
            write_steps(out, worker.run(query_id))
            if on_query:
                on_query(query_id)
        return len(pending)
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_start_worker, initargs=(opener, spec, budget)) as pool:
        for query_id, steps in zip(pending, pool.imap(_run_in_worker, pending), strict=True):
            write_steps(out, steps)
            if on_query:
                on_query(query_id)
    return len(pending)

"""Controller overhead per step, and `dacg --help` start-up time.

    python benchmarks/controller_overhead.py [--queries 40] [--prm data/prm]

Overhead is a step's wall time minus the time spent inside the literature source and the
extractor: the store write, path enumeration and statistics on the embedded store, the
posterior, energy, the 20 features, the PRM reward and the stopping rules. The baseline in
the same run is the extraction time per step, the work the overhead sits beside.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from pipeline.controller import Controller, Extractor
from pipeline.extraction.extractor import default_extractor
from pipeline.graph.embedded_store import EmbeddedStore
from pipeline.model import Abstract, Entity, Evidence, Query
from pipeline.retrieval.source import Cursor, LiteratureSource, SearchConstraints
from pipeline.simulation.benchmark import PAPER_SIZES, build_benchmark
from pipeline.simulation.world import SimConfig
from pipeline.sources import simulated_source
from pipeline.stopping.prm import RewardModel
from pipeline.trajectory import StepRecord


class Clock:
    """Seconds spent inside wrapped calls since the last `take`."""

    def __init__(self) -> None:
        self.inside = 0.0

    def take(self) -> float:
        spent, self.inside = self.inside, 0.0
        return spent


class TimedCursor:
    def __init__(self, cursor: Cursor, clock: Clock) -> None:
        self.cursor, self.clock = cursor, clock

    @property
    def total(self) -> int:
        return self.cursor.total

    @property
    def exhausted(self) -> bool:
        return self.cursor.exhausted

    def next_batch(self) -> list[Abstract]:
        start = time.perf_counter()
        batch = self.cursor.next_batch()
        self.clock.inside += time.perf_counter() - start
        return batch


class TimedSource:
    def __init__(self, source: LiteratureSource, clock: Clock) -> None:
        self.source, self.clock = source, clock

    def search(self, query: Query, constraints: SearchConstraints | None = None) -> Cursor:
        start = time.perf_counter()
        cursor = self.source.search(query, constraints)
        self.clock.inside += time.perf_counter() - start
        return TimedCursor(cursor, self.clock)


class TimedExtractor:
    def __init__(self, extractor: Extractor, clock: Clock) -> None:
        self.extractor, self.clock = extractor, clock

    def extract(self, abstract: Abstract, query: Query,
                mediators: Sequence[Entity] = ()) -> list[Evidence]:
        start = time.perf_counter()
        rows = self.extractor.extract(abstract, query, mediators)
        self.clock.inside += time.perf_counter() - start
        return rows


def help_seconds(repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pipeline", "--help"], check=True,
                       capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--prm", type=Path, default=Path("data/prm"))
    args = parser.parse_args()

    reward_model = RewardModel.load(args.prm) if (args.prm / "metadata.json").is_file() \
        else None
    queries = [q for q in build_benchmark(0, SimConfig(), PAPER_SIZES)
               if q.split == "test"][:args.queries]
    retrieval, extraction = Clock(), Clock()
    source = TimedSource(simulated_source(), retrieval)
    extractor = TimedExtractor(default_extractor(), extraction)
    overheads: list[float] = []
    extract_times: list[float] = []
    mark = [0.0]

    def on_step(step: StepRecord) -> None:
        now = time.perf_counter()
        spent_extracting = extraction.take()
        overheads.append(now - mark[0] - retrieval.take() - spent_extracting)
        extract_times.append(spent_extracting)
        mark[0] = time.perf_counter()

    store = EmbeddedStore()
    for sim in queries:
        controller = Controller(store, source, extractor, None, reward_model, on_step=on_step)
        retrieval.take(), extraction.take()
        mark[0] = time.perf_counter()
        controller.run(sim.query(), sim.id)

    ms = [1000 * x for x in overheads]
    print(f"{len(ms)} steps over {len(queries)} simulated queries, PRM "
          f"{'loaded' if reward_model else 'absent'}")
    print(f"controller overhead per step: median {statistics.median(ms):.2f} ms, "
          f"p95 {sorted(ms)[int(0.95 * (len(ms) - 1))]:.2f} ms")
    print(f"extraction per step (baseline): median "
          f"{1000 * statistics.median(extract_times):.2f} ms")
    print(f"dacg --help: {help_seconds():.2f} s (median of 5)")


if __name__ == "__main__":
    main()

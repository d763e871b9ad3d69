"""The benchmarks `dacg bench` runs on, opened from one spec string so that worker
processes can each open their own copy: 'simulated' (the seed-0 paper-scale benchmark),
a folder written by `dacg simulate corpus`, or a MedEvidence JSONL file. It sits above
evaluation and simulation (as `pipeline/sources.py` does), because a benchmark may be
the simulator's while the simulation's calibration uses evaluation's metrics: evaluation
gets `open_benchmark` passed in and never imports the simulator."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pipeline.evaluation.record import BenchmarkQuery
from pipeline.jsonl import read_jsonl
from pipeline.model import Abstract
from pipeline.retrieval.source import LiteratureSource

MEDEVIDENCE_SPLIT = "dev"


class BenchmarkError(ValueError):
    """A benchmark spec that names nothing usable; the message is one line."""


def _is_medevidence(path: Path) -> bool:
    first = next(read_jsonl(path), None)
    return first is not None and isinstance(first[1], dict) and "question_id" in first[1]


def open_benchmark(spec: str, warn: Callable[[str], None] | None = None
                   ) -> tuple[list[BenchmarkQuery], LiteratureSource]:
    """The queries to record and their source; a MedEvidence question whose wording is not
    understood is left unanswered (not recorded) and named through `warn`."""
    path = Path(spec)
    if spec == "simulated":
        from pipeline.sources import simulated_benchmark

        sims, source = simulated_benchmark()
    elif (path / "manifest.json").is_file():
        from pipeline.simulation.benchmark import load_benchmark

        sims, source = load_benchmark(path)
    elif path.is_file() and _is_medevidence(path):
        from pipeline.retrieval.medevidence import MedEvidenceSource

        medevidence = MedEvidenceSource.from_jsonl(path)  # bad data: CorpusError
        for q in medevidence.questions.values():
            if not q.understood and warn:
                warn(f"{path}: question {q.id} is not worded as a comparison, so it is left "
                     f"unanswered: {q.question[:100]!r}")
        return ([BenchmarkQuery(q.id, q.query, MEDEVIDENCE_SPLIT)
                 for q in medevidence.questions.values() if q.understood], medevidence)
    else:
        raise BenchmarkError(f"{spec!r} is neither 'simulated', a folder written by "
                             "`dacg simulate corpus`, nor a MedEvidence JSONL file")
    return [BenchmarkQuery(s.id, s.query(), s.split) for s in sims], source


def benchmark_abstracts(source: LiteratureSource) -> list[Abstract]:
    """Every abstract of a benchmark's literature, for baselines that read the studies
    themselves (trim-and-fill); none for other sources."""
    from pipeline.retrieval.medevidence import MedEvidenceSource
    from pipeline.simulation.literature import SimulatedLiterature

    if isinstance(source, SimulatedLiterature):
        return source.abstracts()
    if isinstance(source, MedEvidenceSource):
        return [a for q in source.questions.values() for a in q.abstracts]
    return []

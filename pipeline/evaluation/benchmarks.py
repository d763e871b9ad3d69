"""The benchmarks `dacg bench` runs on, opened from one spec string so that worker
processes can each open their own copy: 'simulated' (the seed-0 paper-scale benchmark),
a folder written by `dacg corpus simulate`, or a MedEvidence JSONL file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.jsonl import read_jsonl
from pipeline.model import Query
from pipeline.retrieval.source import LiteratureSource

MEDEVIDENCE_SPLIT = "dev"


class BenchmarkError(ValueError):
    """A benchmark spec that names nothing usable; the message is one line."""


@dataclass(frozen=True)
class BenchmarkQuery:
    """A query to record, with its split (the answer key stays out of the run)."""

    id: str
    query: Query
    split: str


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
                             "`dacg corpus simulate`, nor a MedEvidence JSONL file")
    return [BenchmarkQuery(s.id, s.query(), s.split) for s in sims], source


def abstract_texts(source: LiteratureSource) -> dict[str, str]:
    """Every abstract of a benchmark's literature by PMID (title and text), for baselines
    that read the studies themselves (trim-and-fill); empty for other sources."""
    from pipeline.retrieval.medevidence import MedEvidenceSource
    from pipeline.simulation.literature import SimulatedLiterature

    if isinstance(source, SimulatedLiterature):
        abstracts = [a for topic in source.topic_ids for a, _ in source.literature(topic)]
    elif isinstance(source, MedEvidenceSource):
        abstracts = [a for q in source.questions.values() for a in q.abstracts]
    else:
        return {}
    return {a.pmid: f"{a.title} {a.text}" for a in abstracts}

"""Choose a literature source from a short name or a path, as the CLI spells it. It sits
above retrieval and simulation because "simulated" is one of the names."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.retrieval.source import LiteratureSource, SourceError

if TYPE_CHECKING:
    from pipeline.simulation.literature import SimulatedLiterature
    from pipeline.simulation.world import SimQuery

SIMULATED_SEED = 0
DEFAULT_CACHE = Path(".dacg") / "cache"


def open_source(spec: str, cache_dir: Path = DEFAULT_CACHE,
                offline: bool = False) -> LiteratureSource:
    """`pubmed` (E-utilities, cached on disk; `offline` reads the cache only), `simulated`
    (the seeded paper-scale benchmark's literature), or a path: a JSONL corpus file or a
    folder of PubMed XML files."""
    if spec == "pubmed":
        from pipeline.retrieval.cache import CacheMode, ResponseCache
        from pipeline.retrieval.pubmed import PubMedClient, PubMedConfig

        mode = CacheMode.OFFLINE if offline else CacheMode.READWRITE
        return PubMedClient(PubMedConfig.from_env(),
                            cache=ResponseCache(cache_dir / "pubmed", mode))
    if spec == "simulated":
        return simulated_source()
    path = Path(spec)
    from pipeline.retrieval.corpus import LocalCorpus

    if path.is_dir():
        return LocalCorpus.from_xml_dir(path)
    if path.is_file():
        return LocalCorpus.from_jsonl(path)
    raise SourceError(f"unknown source {spec!r}: use pubmed, simulated, a JSONL corpus file "
                      "or a folder of PubMed XML files")


def simulated_benchmark() -> tuple[list[SimQuery], SimulatedLiterature]:
    """The seed-0 paper-scale benchmark's queries and the source serving its literature."""
    from pipeline.simulation.benchmark import PAPER_SIZES, build_benchmark
    from pipeline.simulation.literature import SimulatedLiterature
    from pipeline.simulation.world import SimConfig

    config = SimConfig()
    queries = build_benchmark(SIMULATED_SEED, config, PAPER_SIZES)
    return queries, SimulatedLiterature(queries, SIMULATED_SEED, config)


def simulated_source() -> LiteratureSource:
    return simulated_benchmark()[1]

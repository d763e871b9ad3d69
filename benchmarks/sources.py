"""Throughput of the literature sources: PubMed XML parsing, simulated abstracts, ranking.

    python benchmarks/sources.py [--repeats 5]

PubMed XML: the 163 real metapub records and Biopython's efetch files in
../shared/data/eutils, parsed one response per record (as single-id EFetch answers) and
as one 171-record PubmedArticleSet (as a batched EFetch page). Simulator: the whole
969-query benchmark's literature, text included. Ranking: a TF-IDF index over those
abstracts and the queries' searches. Each figure is the median over the repeats.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from pipeline.resources import SHARED_DATA
from pipeline.retrieval.corpus import LocalCorpus
from pipeline.retrieval.pubmed_xml import parse_pubmed_xml
from pipeline.simulation.benchmark import build_benchmark
from pipeline.simulation.literature import SimulatedLiterature

EUTILS = SHARED_DATA / "eutils"


def timed(work: Callable[[], int], repeats: int) -> tuple[int, float]:
    """(items per run, median seconds per run)."""
    times, items = [], 0
    for _ in range(repeats):
        start = time.perf_counter()
        items = work()
        times.append(time.perf_counter() - start)
    return items, statistics.median(times)


def report(name: str, items: int, seconds: float, unit: str, size: int = 0) -> None:
    volume = f" ({size / seconds / 2**20:.1f} MiB/s)" if size else ""
    print(f"{name:<40} {items:>6} {unit} in {1000 * seconds:8.1f} ms = "
          f"{items / seconds:>8,.0f} {unit}/s{volume}")


def xml_documents() -> list[bytes]:
    files = sorted((EUTILS / "metapub").glob("*.xml"))
    files += sorted((EUTILS / "biopython").glob("pubmed*.xml"))
    return [f.read_bytes() for f in files]


def one_page(documents: list[bytes]) -> bytes:
    """All records in one PubmedArticleSet, as a batched EFetch answer would hold them."""
    start, end = b"<PubmedArticleSet>", b"</PubmedArticleSet>"
    inner = b"".join(d[d.index(start) + len(start):d.rindex(end)] for d in documents)
    return b'<?xml version="1.0" ?>\n' + start + inner + end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats

    if EUTILS.is_dir():
        documents = xml_documents()
        page = one_page(documents)
        items, seconds = timed(lambda: sum(len(parse_pubmed_xml(d)) for d in documents),
                               repeats)
        report("PubMed XML, one response per record", items, seconds, "abstracts",
               sum(map(len, documents)))
        items, seconds = timed(lambda: len(parse_pubmed_xml(page)), repeats)
        report("PubMed XML, one page of all records", items, seconds, "abstracts", len(page))
    else:
        print(f"PubMed XML: skipped ({EUTILS} is absent)")

    items, seconds = timed(lambda: len(build_benchmark(seed=0)), repeats)
    report("simulator, benchmark queries", items, seconds, "queries")

    def generate() -> int:
        source = SimulatedLiterature(build_benchmark(seed=0), seed=0)
        return sum(len(source.literature(topic)) for topic in source.topic_ids)

    items, seconds = timed(generate, repeats)
    report("simulator, all abstracts with text", items, seconds, "abstracts")

    queries = build_benchmark(seed=0)
    source = SimulatedLiterature(queries, seed=0)
    abstracts = [a for topic in source.topic_ids for a, _ in source.literature(topic)]
    items, seconds = timed(lambda: len(LocalCorpus(abstracts)), 1)
    report("TF-IDF index over simulated abstracts", items, seconds, "abstracts")
    corpus = LocalCorpus(abstracts)
    items, seconds = timed(lambda: sum(corpus.search(q.query()).total > 0 for q in queries),
                           1)
    report("TF-IDF search, benchmark queries", items, seconds, "queries")


if __name__ == "__main__":
    main()

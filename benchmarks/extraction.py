"""Extraction throughput and load times: abstracts per second per core for the default
pipeline on simulated and real (Evidence Inference dev) abstracts, with the ratio against
a baseline measured in the same run, spaCy pipeline load time, and MeSH table/index load
time.

    .venv/bin/python benchmarks/extraction.py [--abstracts FILE.jsonl] [--ei FILE.jsonl]
        [--n 2000] [--repeats 3] [--no-baseline] [--mesh]

Simulated abstracts come from `dacg simulate corpus --out DIR` (DIR/abstracts.jsonl; the
repository's data/simulated by default) or any JSONL with pmid/title/abstract, each with
its topic's query (DIR/queries.jsonl, else the head and tail of DIR/answer_key.jsonl);
the real ones are the Evidence Inference dev prompts in ../shared/data when present. The
baseline is the same extractor on the spaCy Sentencizer and scispacy AbbreviationDetector
Matchers as shipped (`build_nlp(stock=True)`: the same output). The two alternate in
chunks, so load from other processes hits both alike. The run is single-threaded (torch
and BLAS threads pinned to 1), so the rate is per core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.extraction.calibration import load_default_model  # noqa: E402
from pipeline.extraction.cli import EI_DEV  # noqa: E402
from pipeline.extraction.evaluate import read_prompts  # noqa: E402
from pipeline.extraction.extractor import RuleExtractor, default_extractor  # noqa: E402
from pipeline.extraction.nlp import build_nlp  # noqa: E402
from pipeline.jsonl import read_jsonl  # noqa: E402
from pipeline.model import Abstract, Entity, Query  # noqa: E402

SIMULATED = ROOT / "data" / "simulated" / "abstracts.jsonl"
CHUNK = 50

Items = list[tuple[Abstract, Query]]


def load_ei(path: Path, n: int) -> Items:
    """Evidence Inference prompts: the abstract with the query `dacg eval extractor` asks."""
    return _cycle([(Abstract(p.pmcid, "", p.abstract), p.query) for p in read_prompts(path)],
                  n)


def load_simulated(path: Path, n: int) -> Items:
    """Abstracts with their topic's query (queries.jsonl, else the answer key's pair)."""
    topics: dict[str, Query] = {}
    by_pmid: dict[str, Query] = {}
    query_file, key_file = path.parent / "queries.jsonl", path.parent / "answer_key.jsonl"
    if query_file.is_file():
        for _, q in read_jsonl(query_file):
            topics[q["id"]] = Query(Entity.from_name(q["intervention"]["name"]),
                                    Entity.from_name(q["outcome"]["name"]))
    elif key_file.is_file():
        for _, k in read_jsonl(key_file):
            by_pmid.setdefault(str(k["pmid"]), Query(Entity.from_name(k["head"]),
                                                     Entity.from_name(k["tail"])))
    fallback = Query(Entity.from_name("intervention"), Entity.from_name("outcome"))
    items: Items = []
    for _, row in read_jsonl(path):
        pmid = str(row["pmid"])
        query = topics.get(row.get("topic", "")) or by_pmid.get(pmid, fallback)
        items.append((Abstract(pmid, row.get("title", ""), row.get("abstract", "")), query))
        if len(items) >= n:
            break
    return _cycle(items, n)


def _cycle(items: Items, n: int) -> Items:
    if not items:
        return items
    while len(items) < n:
        items += items[: n - len(items)]
    return items[:n]


def measure(name: str, items: Items, variants: dict[str, RuleExtractor],
            repeats: int) -> None:
    """Abstracts/s per CPU-second: the default pipeline alone (the headline figure), then
    each variant alternating in chunks (for the ratio: load from other processes hits
    both alike, but the two pipelines also evict each other's caches)."""
    chars = sum(len(a.title) + len(a.text) for a, _ in items) / len(items)
    print(f"{name}: {len(items)} abstracts (mean {chars:.0f} chars)")
    alone(items, repeats)
    first_sight(items)
    for extractor in variants.values():
        warm_up(extractor, items)
    if len(variants) == 1:
        return
    cpu = dict.fromkeys(variants, 0.0)
    chunk_rates: dict[str, list[float]] = {v: [] for v in variants}
    for start in range(0, len(items), CHUNK):
        chunk = items[start:start + CHUNK]
        for variant, extractor in variants.items():
            cpu_started = time.process_time()
            for abstract, query in chunk:
                extractor.extract(abstract, query)
            spent = time.process_time() - cpu_started
            cpu[variant] += spent
            chunk_rates[variant].append(len(chunk) / max(spent, 1e-9))
    for variant in variants:
        print(f"  alternating, {variant:8s} {len(items) / cpu[variant]:4.0f} abstracts/s per "
              f"CPU-second (median chunk {statistics.median(chunk_rates[variant]):.0f}/s)")
    paired = zip(chunk_rates["current"], chunk_rates["baseline"], strict=True)
    print(f"  ratio current/baseline: {cpu['baseline'] / cpu['current']:.2f} "
          f"(median over chunks {statistics.median(c / b for c, b in paired):.2f})")


def warm_up(extractor: RuleExtractor, items: Items) -> None:
    for abstract, query in items[:CHUNK]:  # caches, lazy spaCy tables
        extractor.extract(abstract, query)


def alone(items: Items, repeats: int) -> None:
    """A fresh default pipeline, warmed up on the first CHUNK abstracts, reads them all;
    `repeats` times, as this shared machine's speed drifts by a quarter from minute to
    minute: the median, and every run."""
    rates = []
    for _ in range(repeats):
        extractor = default_extractor()
        assert isinstance(extractor, RuleExtractor)
        warm_up(extractor, items)
        cpu_started = time.process_time()
        rows = sum(len(extractor.extract(a, q)) for a, q in items)
        rates.append(len(items) / (time.process_time() - cpu_started))
    print(f"  default pipeline alone: {statistics.median(rates):.0f} abstracts/s per "
          f"CPU-second (median of {repeats} runs: {', '.join(f'{r:.0f}' for r in rates)}); "
          f"{rows} rows")


def first_sight(items: Items) -> None:
    """The least favourable case: a fresh pipeline reading each distinct abstract once,
    so every word is new to spaCy's vocabulary and caches (the figure above reads the
    abstracts again, as a long run reads text like what it has read)."""
    extractor = default_extractor()
    distinct = list({abstract.pmid: (abstract, query) for abstract, query in items}.values())
    cpu_started = time.process_time()
    for abstract, query in distinct:
        extractor.extract(abstract, query)
    print(f"  first sight ({len(distinct)} distinct abstracts, fresh pipeline): "
          f"{len(distinct) / (time.process_time() - cpu_started):.0f} abstracts/s per "
          f"CPU-second")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--abstracts", type=Path, default=SIMULATED,
                        help="simulated (or any) abstracts JSONL")
    parser.add_argument("--ei", type=Path, default=EI_DEV, help="Evidence Inference dev JSONL")
    parser.add_argument("--n", type=int, default=2000, help="abstracts per source")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of the default pipeline alone (median shown)")
    parser.add_argument("--no-baseline", action="store_true",
                        help="time the default pipeline only")
    parser.add_argument("--mesh", action="store_true", help="also time the MeSH index")
    args = parser.parse_args()
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass

    started = time.perf_counter()
    build_nlp()
    print(f"spaCy blank pipeline load: {time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    extractor = default_extractor()
    print(f"default extractor load (pipeline + lexicon + confidence model): "
          f"{time.perf_counter() - started:.2f} s")
    assert isinstance(extractor, RuleExtractor)
    variants = {"current": extractor}
    if not args.no_baseline:
        variants["baseline"] = RuleExtractor(nlp=build_nlp(stock=True),
                                             calibration=load_default_model())

    sources = []
    if args.abstracts.is_file():
        sources.append(("simulated", load_simulated(args.abstracts, args.n)))
    if args.ei.is_file():
        sources.append(("Evidence Inference dev", load_ei(args.ei, args.n)))
    if not sources:
        sys.exit("no abstracts: pass --abstracts FILE.jsonl or --ei FILE.jsonl")
    for name, items in sources:
        measure(name, items, variants, max(1, args.repeats))

    if args.mesh:
        from pipeline.extraction.mesh import MeshIndex, MeshTable, default_mesh_path

        path = default_mesh_path()
        if path is None:
            sys.exit("no MeSH file (set DACG_MESH)")
        started = time.perf_counter()
        MeshTable.read(path)
        print(f"MeSH table read: {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        index = MeshIndex.load(path)
        print(f"MeSH table + linker index load (cached after the first build): "
              f"{time.perf_counter() - started:.1f} s")
        names = [q.outcome.name for _, q in sources[-1][1][:200]]
        started = time.perf_counter()
        for name in names:
            index.ground(name)
        print(f"grounding: {len(names) / (time.perf_counter() - started):.0f} names/s")


if __name__ == "__main__":
    main()

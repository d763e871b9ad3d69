"""Extraction throughput and load times: abstracts per second per core for the default
pipeline, spaCy pipeline load time, and MeSH table/index load time.

    .venv/bin/python benchmarks/extraction.py [--abstracts FILE.jsonl] [--n 2000] [--mesh]

Abstracts come from a simulated corpus (`dacg corpus simulate --out DIR`, then
DIR/abstracts.jsonl) or any JSONL with pmid/title/abstract; without one, the Evidence
Inference dev abstracts are used when ../shared/data is present. The run is single-threaded
(torch and BLAS threads pinned to 1), so the rate is per core.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.extraction.extractor import default_extractor  # noqa: E402
from pipeline.extraction.nlp import build_nlp  # noqa: E402
from pipeline.model import Abstract, Entity, Query  # noqa: E402

EI_DEV = ROOT.parent / "shared" / "data" / "evidence_inference" / "dev.jsonl"


def load(path: Path | None, n: int) -> list[tuple[Abstract, Query]]:
    """Abstracts with a query each (the simulated topic's entities, or EI's prompt)."""
    items: list[tuple[Abstract, Query]] = []
    if path is None:
        if not EI_DEV.is_file():
            sys.exit("no abstracts: pass --abstracts FILE.jsonl")
        with EI_DEV.open(encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                query = Query(Entity.from_name(row["intervention"][:300]),
                              Entity.from_name(row["outcome"][:300]))
                items.append((Abstract(row["pmcid"], "", row["abstract"]), query))
    else:
        queries = {}
        query_file = path.parent / "queries.jsonl"
        if query_file.is_file():
            for line in query_file.open(encoding="utf-8"):
                q = json.loads(line)
                queries[q["id"]] = Query(Entity.from_name(q["intervention"]["name"]),
                                         Entity.from_name(q["outcome"]["name"]))
        fallback = Query(Entity.from_name("intervention"), Entity.from_name("outcome"))
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            items.append((Abstract(str(row["pmid"]), row.get("title", ""),
                                   row.get("abstract", "")),
                          queries.get(row.get("topic"), fallback)))
    while len(items) < n:
        items += items[: n - len(items)]
    return items[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--abstracts", type=Path, default=None)
    parser.add_argument("--n", type=int, default=2000)
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

    items = load(args.abstracts, args.n)
    for abstract, query in items[:50]:  # warm-up: caches, lazy spaCy tables
        extractor.extract(abstract, query)
    rows = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for abstract, query in items:
        rows += len(extractor.extract(abstract, query))
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    chars = sum(len(a.title) + len(a.text) for a, _ in items) / len(items)
    print(f"{len(items)} abstracts (mean {chars:.0f} chars): {len(items) / wall:.0f} "
          f"abstracts/s wall, {len(items) / cpu:.0f} abstracts/s per CPU-second; "
          f"{rows} evidence rows")

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
        names = [q.outcome.name for _, q in items[:200]]
        started = time.perf_counter()
        for name in names:
            index.ground(name)
        print(f"grounding: {len(names) / (time.perf_counter() - started):.0f} names/s")


if __name__ == "__main__":
    main()

"""Ingest throughput into a real Neo4j, batched vs one query per row, and path latency.

    python benchmarks/neo4j_ingest.py [--rows 200000] [--baseline-rows 5000]

Uses NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD when set, else starts the local Neo4j 5.26
(Java 17 + Maven) and stops it at the end. The baseline writes the first --baseline-rows
rows of the same stream one query (one transaction) per row, as MedKGent-style per-triple
writers do; all 200,000 that way would take most of an hour, and rows/s is what is compared.
Both are measured after a warm-up (--warmup-rows written and dropped, a few path queries):
a cold JVM spends its first minute compiling, which is not steady-state throughput.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from _synthetic import random_stream

from pipeline.graph.evidence_file import write_in_batches
from pipeline.graph.neo4j_store import Neo4jStore, connect
from pipeline.graph.store import BATCH_SIZE
from pipeline.model import Evidence


@contextmanager
def neo4j() -> Iterator[Neo4jStore]:
    uri = os.environ.get("NEO4J_URI")
    if uri:
        store = connect(uri, os.environ.get("NEO4J_USER", "neo4j"),
                        os.environ.get("NEO4J_PASSWORD", ""))
        yield store
        store.close()
        return
    from pipeline.graph.local_neo4j import start_local_neo4j, stop_local_neo4j

    password = secrets.token_urlsafe(16)
    with tempfile.TemporaryDirectory(prefix="dacg-bench-") as home:
        server = start_local_neo4j(password, home=Path(home))
        try:
            store = connect(server.bolt_uri, "neo4j", password)
            yield store
            store.close()
        finally:
            stop_local_neo4j(server.pid)


def two_hop_pairs(stream: list[Evidence], count: int, seed: int) -> list[tuple[str, str]]:
    """Query endpoints (a, b) joined by at least one chain a -> v -> b, so every timed query
    enumerates real paths (random pairs in a sparse graph almost never have any)."""
    rng = random.Random(seed)
    successors: dict[str, list[str]] = {}
    for e in stream:
        successors.setdefault(e.head.id, []).append(e.tail.id)
    starts = sorted(successors)
    pairs: list[tuple[str, str]] = []
    while len(pairs) < count:
        a = rng.choice(starts)
        v = rng.choice(successors[a])
        if v in successors:
            b = rng.choice(successors[v])
            if b != a:
                pairs.append((a, b))
    return pairs


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--baseline-rows", type=int, default=5_000)
    parser.add_argument("--batch-size", type=int, default=BATCH_SIZE)
    parser.add_argument("--entities", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--warmup-rows", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    stream = random_stream(args.rows, entities=args.entities, pmids=args.rows // 2,
                           seed=args.seed, endpoint_share=0.0)
    run = uuid.uuid4().hex[:8]
    batched_ns, per_row_ns = f"bench-{run}", f"bench-row-{run}"
    with neo4j() as store:
        warmup_ns = f"bench-warmup-{run}"
        warmup = random_stream(args.warmup_rows, entities=args.entities, seed=args.seed + 1,
                               endpoint_share=0.0)
        write_in_batches(store, warmup_ns, warmup, args.batch_size)
        for row in warmup[:200]:
            store.write(warmup_ns, [row])
            store.paths(warmup_ns, row.head.id, row.tail.id)
        store.drop(warmup_ns)

        start = time.perf_counter()
        write_in_batches(store, batched_ns, stream, args.batch_size)
        batched_rate = len(stream) / (time.perf_counter() - start)

        baseline = stream[:args.baseline_rows]
        start = time.perf_counter()
        for row in baseline:
            store.write(per_row_ns, [row])
        per_row_rate = len(baseline) / (time.perf_counter() - start)

        stats = store.stats(batched_ns)
        pairs = two_hop_pairs(stream, args.queries + 20, args.seed)
        latencies, found = [], 0
        for i, (source, target) in enumerate(pairs):
            start = time.perf_counter()
            found += len(store.paths(batched_ns, source, target))
            if i >= 20:  # the first 20 warm the plan cache
                latencies.append((time.perf_counter() - start) * 1000)
        store.drop(batched_ns)
        store.drop(per_row_ns)

    print(f"graph: {stats.nodes} entities, {stats.edges} edges, {stats.evidence} evidence "
          f"from {len(stream)} rows")
    print(f"batched UNWIND ({args.batch_size}/tx): {batched_rate:,.0f} rows/s")
    print(f"one query per row ({len(baseline)} rows): {per_row_rate:,.0f} rows/s")
    print(f"ratio batched / per-row: {batched_rate / per_row_rate:.1f}x")
    print(f"path query (direct + two-hop) over {len(latencies)} pairs joined by a two-hop "
          f"chain ({found / len(pairs):.1f} paths each): "
          f"p50 {statistics.median(latencies):.2f} ms, p95 {percentile(latencies, 0.95):.2f} ms")


if __name__ == "__main__":
    main()

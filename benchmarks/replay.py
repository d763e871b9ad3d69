"""Offline replay of every stopping policy over a full recording (issue 7: <= 2 s for
969 queries x 20 steps).

    python benchmarks/replay.py [--records records/simulated.jsonl] [--repeat 5]

Times, median over repeats: reading the JSONL records, scoring every step with the PRM
(numpy), and replaying the 11 policies plus the oracle over every query. The baseline in
the same run is what replaying spares: recording a sample of the same queries, scaled to
the whole recording.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from pipeline.benchmarks import open_benchmark
from pipeline.evaluation.harness import scored
from pipeline.evaluation.record import record
from pipeline.evaluation.replay import policies, replay_all
from pipeline.recordings import read_queries, read_trajectories
from pipeline.stopping.prm import RewardModel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, default=Path("records/simulated.jsonl"))
    parser.add_argument("--queries", type=Path, default=Path("data/simulated/queries.jsonl"))
    parser.add_argument("--prm", type=Path, default=Path("data/prm"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sample", type=int, default=20,
                        help="queries recorded for the baseline")
    args = parser.parse_args()
    if not args.records.is_file():
        sys.exit(f"{args.records}: no such file; record it first with "
                 "`dacg bench record simulated --out records/simulated.jsonl`")
    truth, _ = read_queries(args.queries)
    model = RewardModel.load(args.prm)
    named = policies()
    load, score, replay = [], [], []
    for _ in range(args.repeat):
        started = time.perf_counter()
        runs = read_trajectories(args.records)
        loaded = time.perf_counter()
        runs = scored(runs, model)
        rewarded = time.perf_counter()
        replay_all(named, runs, truth)
        done = time.perf_counter()
        load.append(loaded - started)
        score.append(rewarded - loaded)
        replay.append(done - rewarded)
    steps = sum(len(s) for s in runs.values())
    print(f"{len(runs)} queries, {steps} recorded steps, {len(named) + 1} policies "
          f"(incl. oracle), median of {args.repeat}:")
    print(f"  read records     {statistics.median(load):7.3f} s")
    print(f"  PRM scoring      {statistics.median(score):7.3f} s")
    print(f"  replay policies  {statistics.median(replay):7.3f} s")
    total = statistics.median(a + b + c for a, b, c in zip(load, score, replay, strict=True))
    print(f"  total            {total:7.3f} s   (target <= 2 s)")

    queries, source = open_benchmark("simulated")
    sample = [q for q in queries if q.id in runs][:args.sample]
    out = Path("/tmp/dacg-bench-replay-sample.jsonl")
    out.unlink(missing_ok=True)
    started = time.perf_counter()
    record("simulated", sample, out, opened=(queries, source), opener=open_benchmark)
    per_query = (time.perf_counter() - started) / len(sample)
    out.unlink(missing_ok=True)
    print(f"baseline: recording costs {per_query:.3f} s per query, {per_query * len(runs):.0f} s "
          f"for these {len(runs)}; replaying all policies is "
          f"{per_query * len(runs) / total:.0f}x faster than recording once")


if __name__ == "__main__":
    main()

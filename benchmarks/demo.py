"""`dacg demo` wall time (issue 16: under 30 s from a warm install on the 2-core machine).

    python benchmarks/demo.py [--repeat 3]

Runs the installed `dacg demo` as a user would (a fresh process each time, so imports and
the extractor's start-up count), and prints each wall time with the load average before
and after, since the machine is shared. The ratio to a bare `dacg --help` in the same run
says how much of it is the demo's own work rather than process start-up.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def _timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    dacg = shutil.which("dacg") or os.path.join(os.path.dirname(sys.executable), "dacg")
    _timed([dacg, "--help"])  # warm the file cache once
    baseline = statistics.median(_timed([dacg, "--help"]) for _ in range(3))
    times = []
    for i in range(args.repeat):
        before = os.getloadavg()[0]
        times.append(_timed([dacg, "demo"]))
        print(f"run {i + 1}: {times[-1]:6.1f} s  (load average {before:.2f} -> "
              f"{os.getloadavg()[0]:.2f}, {os.cpu_count()} cores)")
    median = statistics.median(times)
    print(f"dacg demo: median {median:.1f} s over {args.repeat} runs; `dacg --help` "
          f"{baseline:.2f} s ({median / baseline:.0f}x); target < 30 s: "
          f"{'met' if median < 30 else 'not met'}")


if __name__ == "__main__":
    main()

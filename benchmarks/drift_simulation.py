"""Wall time of the drift simulation at the paper's size: all scenarios, 8,000 trials, T = 20.

Run as `python benchmarks/drift_simulation.py`; prints the median of a few repeats (target
<= 1 s). Simulation only: the CSV and the figure are not timed.
"""

from __future__ import annotations

import statistics
import time

from pipeline.simulation.drift import paper_scenarios, simulate

TRIALS, DEPTH, REPEATS = 8000, 20, 7


def main() -> None:
    scenarios = paper_scenarios(0.1)
    times = []
    for seed in range(REPEATS):
        start = time.perf_counter()
        simulate(scenarios, TRIALS, DEPTH, seed)
        times.append(time.perf_counter() - start)
    print(f"drift simulation: {len(scenarios)} curves x {TRIALS} trials x T={DEPTH}: "
          f"median {1000 * statistics.median(times):.1f} ms over {REPEATS} runs "
          f"(min {1000 * min(times):.1f}, max {1000 * max(times):.1f})")


if __name__ == "__main__":
    main()

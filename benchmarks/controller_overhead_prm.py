"""What the stopping layer adds to one retrieval step: a PRM reward (numpy) and the DACG
policy's check, and the offline replay of a 20-step recording.

Run as `python benchmarks/controller_overhead_prm.py`. The model has random weights of the
real shape (the cost does not depend on the values); no torch is imported.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from pipeline.inference.features import FEATURE_NAMES, FEATURE_VERSION
from pipeline.stopping.policies import DACGPolicy, replay
from pipeline.stopping.prm import LAYERS, RewardModel
from pipeline.trajectory import StepRecord

REPEATS = 7


def per_call_us(action: Callable[[], object], calls: int) -> float:
    """Median over REPEATS of the mean time per call, in microseconds."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(calls):
            action()
        times.append((time.perf_counter() - start) / calls)
    return 1e6 * statistics.median(times)


def main() -> None:
    rng = np.random.default_rng(0)
    shapes = zip(LAYERS[1:], LAYERS[:-1], strict=True)  # (out, in) per layer
    model = RewardModel(
        tuple(rng.normal(size=shape) for shape in shapes),
        tuple(rng.normal(size=n_out) for n_out in LAYERS[1:]),
        np.zeros(LAYERS[0]), np.ones(LAYERS[0]))
    draw = random.Random(0)
    features = {name: draw.random() for name in FEATURE_NAMES}
    steps = [StepRecord("q", t, [], [], {}, [], {}, True, "Beneficial", 0.5, {}, features,
                        FEATURE_VERSION, reward=float(t)) for t in range(1, 21)]
    policy = DACGPolicy()
    rows = np.tile(np.array(list(features.values())), (1000, 1))

    timings = [
        ("PRM reward, one step (numpy)", lambda: model.reward(features), 5000),
        ("PRM forward, 1000 steps batched", lambda: model.forward(rows), 50),
        ("DACG policy check at step 20", lambda: policy.fires(steps), 5000),
        ("replay of a 20-step run, no rule firing", lambda: replay(policy, steps), 500),
    ]
    for label, action, calls in timings:
        print(f"{label:<42}{per_call_us(action, calls):10.1f} us")
    print(f"torch imported: {'torch' in sys.modules}")


if __name__ == "__main__":
    main()

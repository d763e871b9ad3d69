"""Evidence drift under publication bias (paper section 2, SPEC section 7): the math.

The query's true label is NoEffect. Retrieval step t returns one report, positive (it
supports Beneficial) or null. D(t) is the probability that the label predicted after t
reports is Beneficial, i.e. wrong. Pure numpy/scipy, no I/O.

How each scenario generates reports (p = 1/2 + b):

- ``iid``: reports are i.i.d. Bernoulli(p).
- ``correlated``: a stationary two-state Markov chain. The first report is positive with
  probability p; then P(positive | previous positive) = p + rho (1 - p) and
  P(positive | previous null) = p (1 - rho). Every report is marginally Bernoulli(p) and
  successive reports have correlation rho (lag k: rho^k).
- ``varying``: each trial (one query) draws its own b ~ N(b_mean, b_sd), b_sd a standard
  deviation, clipped to [-1/2, 1/2] so that p is a probability; given b, reports are i.i.d.
- ``asymmetric``: i.i.d. reports; null extractions have lower confidence than positive ones.

Per-extraction confidence: a positive report's s ~ Uniform(s+ - spread, s+ + spread), a null
report's s ~ Uniform(s- - spread, s- + spread), spread 0 meaning the fixed value. The paper
states fixed confidences for its asymmetric case (s- = 0.3, s+ = 0.6), so the paper's
scenarios use fixed confidences and the symmetric ones s- = s+ = 0.6. Note that with one fixed
s for both polarities noisy-OR decides exactly as vote counting (w+ > w- iff n+ > n-), so the
paper's "indistinguishable" curves hold by construction; ``spread`` > 0 (the extra scenario
s ~ Uniform(0.3, 0.9)) is what makes the two aggregators differ.

Aggregators, both with ties broken by a fair coin drawn independently at every step:

- ``vote``: Beneficial iff n+ > n- (the theorem's aggregator).
- ``noisy-or``: positive and null evidence are separate edges whose beliefs are
  w = 1 - prod_j (1 - s_j), computed in float64 as the deployed system does (paper
  Eq. noisy-or); the label is the polarity with the larger belief.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.stats import binom, norm

Aggregator = Literal["vote", "noisy-or"]
Kind = Literal["iid", "correlated", "varying", "asymmetric"]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

Z95 = float(norm.ppf(0.975))


def check_bias(b: float) -> None:
    """Bias outside (0, 1/2) is either no publication bias or not a probability."""
    if not 0.0 < b < 0.5:
        raise ValueError(f"b must lie in (0, 0.5), got {b}")


def exact_vote_drift(t: ArrayLike, b: float, tie_weight: float = 0.5) -> FloatArray:
    """Exact vote-counting D(t) = P(n+ > t/2) + tie_weight * P(n+ = t/2), n+ ~ Bin(t, 1/2 + b).

    tie_weight = 1/2 is the simulation's fair coin; 0 is the theorem's convention (a tie
    predicts NoEffect), under which D dips at every even t. With the coin D(2k) = D(2k - 1),
    so the exact curve is a non-decreasing staircase and D(1) = D(2) = 1/2 + b.
    """
    check_bias(b)
    ts = np.asarray(t, dtype=np.int64)
    p = 0.5 + b
    half = ts // 2
    tie = np.where(ts % 2 == 0, binom.pmf(half, ts, p), 0.0)
    return np.asarray(binom.sf(half, ts, p) + tie_weight * tie, dtype=np.float64)


def clt_envelope(t: ArrayLike, b: float) -> FloatArray:
    """Phi(b sqrt(t) / sigma), sigma^2 = (1/2 + b)(1/2 - b): the theorem's large-t limit."""
    check_bias(b)
    sigma = math.sqrt((0.5 + b) * (0.5 - b))
    return np.asarray(norm.cdf(b * np.sqrt(np.asarray(t, dtype=np.float64)) / sigma))


@dataclass(frozen=True)
class Scenario:
    """One simulated setting; ``label`` names the report model, ``aggregator`` the decision."""

    kind: Kind
    aggregator: Aggregator
    b: float
    b_sd: float = 0.0
    rho: float = 0.0
    s_pos: float = 0.6
    s_neg: float = 0.6
    spread: float = 0.0

    @property
    def label(self) -> str:
        if self.kind == "correlated":
            name = f"correlated rho={self.rho:g}, b={self.b:g}"
        elif self.kind == "varying":
            name = f"varying b~N({self.b:g}, {self.b_sd:g})"
        elif self.kind == "asymmetric":
            name = f"asymmetric s-={self.s_neg:g} s+={self.s_pos:g}, b={self.b:g}"
        else:
            name = f"iid b={self.b:g}"
        if self.spread:
            name += f", s~U({self.s_pos - self.spread:g}, {self.s_pos + self.spread:g})"
        return name


def paper_scenarios(b: float = 0.1) -> list[Scenario]:
    """The paper's figure: i.i.d. at b and at 0.2 under both aggregators, plus noisy-OR with
    spread confidences at b (left panel); the three departures at base bias b under the
    deployed noisy-OR (right panel)."""
    check_bias(b)
    scenarios = [Scenario("iid", agg, bias) for bias in sorted({b, 0.2})
                 for agg in ("vote", "noisy-or")]
    return scenarios + [
        Scenario("iid", "noisy-or", b, spread=0.3),
        Scenario("correlated", "noisy-or", b, rho=0.5),
        Scenario("varying", "noisy-or", b, b_sd=0.05),
        Scenario("asymmetric", "noisy-or", b, s_neg=0.3),
    ]


def draw_reports(sc: Scenario, trials: int, depth: int,
                 rng: np.random.Generator) -> tuple[BoolArray, FloatArray]:
    """Polarity (True = positive) and extraction confidence of each report, shape (trials, T)."""
    bias = np.full(trials, sc.b)
    if sc.kind == "varying":
        bias = np.clip(rng.normal(sc.b, sc.b_sd, trials), -0.5, 0.5)
    p = 0.5 + bias
    u = rng.random((trials, depth))
    if sc.kind == "correlated":
        positive = np.empty((trials, depth), dtype=np.bool_)
        positive[:, 0] = u[:, 0] < p
        stay, enter = p + sc.rho * (1.0 - p), p * (1.0 - sc.rho)
        for t in range(1, depth):
            positive[:, t] = u[:, t] < np.where(positive[:, t - 1], stay, enter)
    else:
        positive = u < p[:, None]
    confidence = np.where(positive, sc.s_pos, sc.s_neg)
    if sc.spread:
        confidence = confidence + rng.uniform(-sc.spread, sc.spread, size=(trials, depth))
    return positive, confidence


def vote_drift(positive: BoolArray, coin: BoolArray) -> BoolArray:
    """Wrong (Beneficial) after each step: more positive than null reports so far."""
    steps = np.arange(1, positive.shape[1] + 1)
    margin = 2 * np.cumsum(positive, axis=1) - steps
    return (margin > 0) | ((margin == 0) & coin)


def noisy_or_drift(positive: BoolArray, confidence: FloatArray, coin: BoolArray) -> BoolArray:
    """Wrong after each step: the positive edge's noisy-OR belief exceeds the null edge's."""
    w_pos = 1.0 - np.cumprod(np.where(positive, 1.0 - confidence, 1.0), axis=1)
    w_neg = 1.0 - np.cumprod(np.where(positive, 1.0, 1.0 - confidence), axis=1)
    return (w_pos > w_neg) | ((w_pos == w_neg) & coin)


def wilson_interval(successes: NDArray[np.int64], n: int) -> tuple[FloatArray, FloatArray]:
    """95% Wilson score interval: stays inside [0, 1] where D(t) is near 1 (asymmetric)."""
    phat = successes / n
    denom = 1.0 + Z95**2 / n
    centre = (phat + Z95**2 / (2 * n)) / denom
    half = Z95 * np.sqrt(phat * (1.0 - phat) / n + Z95**2 / (4 * n * n)) / denom
    return centre - half, centre + half


@dataclass(frozen=True)
class Curve:
    """Simulated D(t) for t = 1..T with its 95% interval."""

    scenario: Scenario
    trials: int
    drift: FloatArray
    low: FloatArray
    high: FloatArray


def simulate_one(sc: Scenario, trials: int, depth: int, rng: np.random.Generator) -> Curve:
    positive, confidence = draw_reports(sc, trials, depth, rng)
    coin = rng.random((trials, depth)) < 0.5
    if sc.aggregator == "vote":
        wrong = vote_drift(positive, coin)
    else:
        wrong = noisy_or_drift(positive, confidence, coin)
    count = wrong.sum(axis=0)
    low, high = wilson_interval(count, trials)
    return Curve(sc, trials, count / trials, low, high)


def simulate(scenarios: list[Scenario], trials: int = 8000, depth: int = 20,
             seed: int = 0) -> list[Curve]:
    """Monte Carlo D(t) per scenario; scenario i uses its own child stream of ``seed``, so
    curves are independent and a run is reproducible from (scenarios, trials, T, seed)."""
    if trials <= 0:
        raise ValueError(f"trials must be positive, got {trials}")
    if depth <= 0:
        raise ValueError(f"T must be positive, got {depth}")
    streams = np.random.SeedSequence(seed).spawn(len(scenarios))
    return [simulate_one(sc, trials, depth, np.random.default_rng(ss))
            for sc, ss in zip(scenarios, streams, strict=True)]

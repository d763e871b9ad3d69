"""Stopping rules and policies over a recorded run (SPEC §4-5, paper Fig. alg:kgsa).

A policy only looks at the steps it is given (`fires(steps)` asks "stop at steps[-1]?"),
so the same object decides online during a run and offline on a recording (`replay`),
and the offline answer can never peek at later steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pipeline.trajectory import StepRecord

DELTA = 0.01  # KL threshold (Layer 1)
ALPHA = 0.3  # PRM decline threshold (Layer 2)
ALPHA_C = 0.1  # PRM convergence threshold
WINDOW = 4  # PRM convergence window: t >= 4, the last 4 rewards
BUDGET = 20  # B: steps a run may take


@dataclass(frozen=True)
class StopDecision:
    """Where a run stops (the recorded 1-based step number) and why."""

    step: int
    reason: str  # "kl", "prm_decline", "prm_convergence", "budget", "source_dry", "fixed_k"


class StoppingPolicy(Protocol):
    @property
    def name(self) -> str: ...

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        """The reason to stop at steps[-1], or None to keep reading."""
        ...


def _informed_rewards(steps: Sequence[StepRecord]) -> list[float]:
    """Rewards of the steps that had a path: a NoEvidence state is never a correct answer,
    so its reward is no peak to decline from and no part of a plateau."""
    return [s.reward for s in steps if s.informed and s.reward is not None]


@dataclass(frozen=True)
class KLRule:
    """Layer 1: D_KL(q_t || q_{t-1}) < delta, the posterior has stopped moving."""

    delta: float = DELTA
    name: str = field(default="kl", init=False)

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        last = steps[-1]
        return "kl" if last.informed and last.kl < self.delta else None


@dataclass(frozen=True)
class PRMDecline:
    """Layer 2: r_t < max_{s<=t} r_s - alpha, the state moves away from ones that were
    historically correct (max over informed steps)."""

    alpha: float = ALPHA
    name: str = field(default="prm_decline", init=False)

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        last = steps[-1]
        if not last.informed or last.reward is None:
            return None
        return "prm_decline" if last.reward < max(_informed_rewards(steps)) - self.alpha else None


@dataclass(frozen=True)
class PRMConvergence:
    """t >= window and max - min of the last `window` rewards < alpha_c: a reward plateau
    KL may miss. Every step of the window must be informed and scored."""

    alpha_c: float = ALPHA_C
    window: int = WINDOW
    name: str = field(default="prm_convergence", init=False)

    def __post_init__(self) -> None:
        if self.window < 2:
            raise ValueError(f"a reward plateau needs a window of >= 2 steps, got {self.window}")

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        recent = steps[-self.window:]
        rewards = _informed_rewards(recent)
        if len(rewards) < self.window:
            return None
        return "prm_convergence" if max(rewards) - min(rewards) < self.alpha_c else None


def _first_reason(rules: Sequence[StoppingPolicy], steps: Sequence[StepRecord]) -> str | None:
    for rule in rules:
        reason = rule.fires(steps)
        if reason is not None:
            return reason
    return None


@dataclass(frozen=True)
class DACGPolicy:
    """DACG: KL, else PRM decline, else PRM convergence (the order of the paper's loop,
    lines 6-8); the reason is the first rule that fires.

    Args:
        delta: the KL threshold (nats) of the KL rule.
        alpha: the PRM decline threshold, in reward units (rewards lie in [0, 1]).
        alpha_c: the PRM convergence threshold: the largest spread (max - min, reward
            units) of the last `window` rewards that counts as a plateau.
        window: how many recent steps (>= 2) the convergence rule looks at.
    """

    delta: float = DELTA
    alpha: float = ALPHA
    alpha_c: float = ALPHA_C
    window: int = WINDOW
    name: str = field(default="dacg", init=False)

    @property
    def rules(self) -> tuple[KLRule, PRMDecline, PRMConvergence]:
        return (KLRule(self.delta), PRMDecline(self.alpha),
                PRMConvergence(self.alpha_c, self.window))

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        return _first_reason(self.rules, steps)

    def flags(self, steps: Sequence[StepRecord]) -> dict[str, bool]:
        """Which rules would fire at steps[-1]: the `rules` field of a StepRecord."""
        return {rule.name: rule.fires(steps) is not None for rule in self.rules}


@dataclass(frozen=True)
class KLOnly(KLRule):
    """The paper's ablation DACG_KL: the KL rule alone as a policy, no PRM.

    Args:
        delta: the KL threshold (nats); stop once D_KL(q_t || q_{t-1}) < delta.
    """


@dataclass(frozen=True)
class PRMOnly(PRMDecline):
    """The paper's ablation DACG_PRM: the PRM decline rule alone as a policy (no KL, no
    PRM convergence), named 'prm'.

    Args:
        alpha: how far (in reward units, rewards in [0, 1]) the reward may fall below its
            best so far before the policy stops.
    """

    name: str = field(default="prm", init=False)


@dataclass(frozen=True)
class FixedBudget:
    """Read exactly k steps (k = 1 is single pass), or until the source runs dry.

    Args:
        k: the number of retrieval steps to read (>= 1).
    """

    k: int

    def __post_init__(self) -> None:
        if self.k < 1:
            raise ValueError(f"a fixed budget needs k >= 1, got {self.k}")

    @property
    def name(self) -> str:
        return f"k={self.k}"

    def fires(self, steps: Sequence[StepRecord]) -> str | None:
        return "fixed_k" if steps[-1].step >= self.k else None


def replay(policy: StoppingPolicy, steps: Sequence[StepRecord],
           budget: int = BUDGET) -> StopDecision:
    """Apply a policy offline: the first step t where it fires on steps[:t]; else the last
    recorded step, "budget" if the run used the whole budget, "source_dry" if it ended
    early because the source had nothing more."""
    if not steps:
        raise ValueError("no steps to replay")
    for t in range(1, len(steps) + 1):
        reason = policy.fires(steps[:t])
        if reason is not None:
            return StopDecision(steps[t - 1].step, reason)
    last = steps[-1].step
    return StopDecision(last, "budget" if last >= budget else "source_dry")


@dataclass(frozen=True)
class Thresholds:
    """Every tunable threshold of the stopping policies. These defaults are the paper's
    (where it gives one); the thresholds in force are the ones `dacg bench tune` froze
    (pipeline.stopping.thresholds), which every command reads."""

    delta: float = DELTA
    alpha: float = ALPHA
    alpha_c: float = ALPHA_C
    kl_delta: float = DELTA
    prm_alpha: float = ALPHA
    density_epsilon: float = 0.0
    path_window: int = 1
    plateau_growth: float = 0.1
    plateau_window: int = 3


PAPER_THRESHOLDS = Thresholds()


def dacg_policy(thresholds: Thresholds) -> DACGPolicy:
    return DACGPolicy(thresholds.delta, thresholds.alpha, thresholds.alpha_c)


def belief_policies(thresholds: Thresholds) -> dict[str, StoppingPolicy]:
    """DACG and its two ablations with the given thresholds: the one place both `dacg
    query` and the replayed report tables build them."""
    return {"dacg": dacg_policy(thresholds), "kl": KLOnly(thresholds.kl_delta),
            "prm": PRMOnly(thresholds.prm_alpha)}


def policy_from_name(name: str, thresholds: Thresholds) -> StoppingPolicy:
    """"dacg", "kl", "prm" or "k=N" (N >= 1), with the given thresholds."""
    text = name.strip().lower()
    named = belief_policies(thresholds)
    if text in named:
        return named[text]
    if text.startswith("k=") and text[2:].isdecimal() and int(text[2:]) >= 1:
        return FixedBudget(int(text[2:]))
    raise ValueError(f"unknown stopping policy {name!r} (use dacg, kl, prm or k=N with N >= 1)")

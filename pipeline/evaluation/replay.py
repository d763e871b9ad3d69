"""Apply every stopping policy offline to the same recorded trajectories (SPEC §5).

A policy sees only the steps up to the one it decides on (`pipeline.stopping.policies.
replay`), so replaying a recording gives exactly what the policy would have done online.
The oracle is the one exception by design: it knows the truth and stops at the first
correct step, which makes it the ceiling the other policies are measured against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pipeline.model import Label
from pipeline.stopping.policies import (
    BUDGET,
    PAPER_THRESHOLDS,
    FixedBudget,
    StoppingPolicy,
    Thresholds,
    belief_policies,
    replay,
)
from pipeline.stopping.structural import DensityStability, EvidencePlateau, PathDiscovery
from pipeline.trajectory import StepRecord

FIXED_BUDGETS = (1, 3, 5, 10, 20)
ORACLE = "Oracle"

Runs = Mapping[str, Sequence[StepRecord]]


def policies(thresholds: Thresholds = PAPER_THRESHOLDS,
             budgets: Sequence[int] = FIXED_BUDGETS) -> dict[str, StoppingPolicy]:
    """The policies of the paper's tables, by the name the tables show."""
    fixed: dict[str, StoppingPolicy] = {f"k={k}": FixedBudget(k) for k in budgets}
    named = belief_policies(thresholds)
    return {
        **fixed,
        "KL-only": named["kl"],
        "PRM-only": named["prm"],
        "DACG": named["dacg"],
        "Density stability": DensityStability(thresholds.density_epsilon),
        "Path discovery": PathDiscovery(thresholds.path_window),
        "Evidence plateau": EvidencePlateau(thresholds.plateau_growth,
                                            thresholds.plateau_window),
    }


@dataclass(frozen=True)
class Outcome:
    """Where one policy stopped one query, what it answered, and when the full recorded
    run first held the true label (None if never: such a query has no regret)."""

    query_id: str
    truth: str
    label: str
    stop: int
    reason: str
    first_correct: int | None

    @property
    def correct(self) -> bool:
        return self.label == self.truth

    @property
    def drifted(self) -> bool:
        """Held the true label at some step it read, but not at the stop (SPEC §5): a
        correct answer the run only reaches after its stop is a miss, not a drift."""
        return (self.first_correct is not None and self.first_correct <= self.stop
                and not self.correct)

    @property
    def regret(self) -> int | None:
        """max(0, stop - first_correct), or None when no step was correct."""
        return None if self.first_correct is None else max(0, self.stop - self.first_correct)


def first_correct_step(steps: Sequence[StepRecord], truth: str) -> int | None:
    """The first step whose label is the true one (NoEvidence is never correct)."""
    for step in steps:
        if step.label == truth != Label.NO_EVIDENCE:
            return step.step
    return None


def stop_outcome(policy: StoppingPolicy, steps: Sequence[StepRecord], truth: str,
                 budget: int = BUDGET) -> Outcome:
    decision = replay(policy, steps, budget)
    stopped = next(s for s in steps if s.step == decision.step)
    return Outcome(stopped.query_id, truth, stopped.label, decision.step, decision.reason,
                   first_correct_step(steps, truth))


def oracle_outcome(steps: Sequence[StepRecord], truth: str) -> Outcome:
    """Stop at the first correct step; a run that is never correct stops at its first
    step, since reading on cannot help it."""
    first = first_correct_step(steps, truth)
    stopped = steps[0] if first is None else next(s for s in steps if s.step == first)
    return Outcome(stopped.query_id, truth, stopped.label, stopped.step, "oracle", first)


def replay_all(named: Mapping[str, StoppingPolicy], runs: Runs, truth: Mapping[str, str],
               budget: int = BUDGET, with_oracle: bool = True) -> dict[str, list[Outcome]]:
    """Outcomes per policy name (plus the oracle), queries in id order."""
    missing = sorted(set(runs) - set(truth))
    if missing:
        raise ValueError(f"no true label for {len(missing)} recorded queries, e.g. "
                         f"{missing[0]!r}")
    order = sorted(runs)
    results = {name: [stop_outcome(policy, runs[q], truth[q], budget) for q in order]
               for name, policy in named.items()}
    if with_oracle:
        results[ORACLE] = [oracle_outcome(runs[q], truth[q]) for q in order]
    return results

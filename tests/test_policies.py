"""Stopping rules and policies on hand-built recordings: each rule's threshold, the
informed-only guard, the DACG order of reasons, offline replay and the policy names."""

from __future__ import annotations

import json

import pytest

from pipeline.inference.features import FEATURE_VERSION
from pipeline.stopping.policies import (
    DACGPolicy,
    FixedBudget,
    KLOnly,
    KLRule,
    PRMConvergence,
    PRMDecline,
    PRMOnly,
    StopDecision,
    Thresholds,
    policy_from_name,
    replay,
)
from pipeline.trajectory import StepRecord


def step(t: int, kl: float = 1.0, reward: float | None = None,
         informed: bool = True) -> StepRecord:
    return StepRecord(
        query_id="q1", step=t, retrieved_pmids=[str(t)], new_evidence=[], graph={},
        top_paths=[], posterior={"Beneficial": 0.5, "NoEffect": 0.3, "Harmful": 0.2},
        informed=informed, label="Beneficial" if informed else "NoEvidence", kl=kl,
        energy={}, features={}, feature_version=FEATURE_VERSION, reward=reward)


def run(*rewards: float | None, kls: tuple[float, ...] = (), uninformed: int = 0
        ) -> list[StepRecord]:
    """Steps 1..n with these rewards; the first `uninformed` steps have no path; KL 1.0
    unless given."""
    kl = list(kls) + [1.0] * (len(rewards) - len(kls))
    return [step(t, kl[t - 1], r, informed=t > uninformed)
            for t, r in enumerate(rewards, 1)]


def test_kl_fires_below_delta_only() -> None:
    rule = KLRule(delta=0.01)
    assert rule.fires([step(1, kl=0.009)]) == "kl"
    assert rule.fires([step(1, kl=0.01)]) is None
    assert rule.fires([step(1, kl=0.5)]) is None


def test_no_rule_fires_on_a_step_without_evidence() -> None:
    """An uninformed posterior is the uniform prior: KL 0, flat rewards, yet no answer."""
    flat = run(0.0, 0.0, 0.0, 0.0, 0.0, kls=(0.0,) * 5, uninformed=5)
    for rule in (KLRule(), PRMDecline(), PRMConvergence(), DACGPolicy()):
        assert all(rule.fires(flat[:t]) is None for t in range(1, 6)), rule


def test_prm_decline_against_running_max() -> None:
    rule = PRMDecline(alpha=0.3)
    steps = run(0.5, 1.0, 0.8, 0.69)
    assert [rule.fires(steps[:t]) for t in range(1, 5)] == [None, None, None, "prm_decline"]


def test_prm_decline_ignores_rewards_of_uninformed_steps() -> None:
    """A high reward while there was no path is no peak to decline from."""
    assert PRMDecline(alpha=0.3).fires(run(2.0, 0.5, uninformed=1)) is None
    assert PRMDecline(alpha=0.3).fires(run(2.0, 0.5)) == "prm_decline"


def test_reward_rules_never_fire_without_a_reward() -> None:
    assert PRMDecline().fires(run(1.0, None)) is None
    assert PRMConvergence().fires(run(1.0, 1.0, 1.0, None)) is None
    assert PRMConvergence().fires(run(None, 1.0, 1.0, 1.0)) is None


def test_prm_convergence_needs_four_informed_steps_within_alpha_c() -> None:
    rule = PRMConvergence(alpha_c=0.1, window=4)
    assert rule.fires(run(1.0, 1.0, 1.0)) is None  # t = 3 < 4
    assert rule.fires(run(1.0, 1.02, 1.05, 1.09)) == "prm_convergence"
    assert rule.fires(run(1.0, 1.02, 1.05, 1.1)) is None  # range 0.1 is not < 0.1
    assert rule.fires(run(1.0, 1.0, 1.0, 1.0, uninformed=1)) is None
    assert rule.fires(run(5.0, 1.0, 1.0, 1.0, 1.0)) == "prm_convergence"  # last 4 only
    with pytest.raises(ValueError):
        PRMConvergence(window=0)


def test_dacg_reason_is_the_first_rule_in_paper_order() -> None:
    both = run(1.0, 0.5, kls=(1.0, 0.001))  # KL and decline both fire at step 2
    assert DACGPolicy().fires(both) == "kl"
    assert DACGPolicy().flags(both) == {"kl": True, "prm_decline": True,
                                        "prm_convergence": False}
    assert DACGPolicy().fires(run(1.0, 0.5)) == "prm_decline"
    assert DACGPolicy().fires(run(1.0, 1.0, 1.0, 1.0)) == "prm_convergence"
    assert DACGPolicy().fires(run(1.0, 1.2)) is None


def test_ablations_use_one_rule_each() -> None:
    kl_only, prm_only = KLOnly(), PRMOnly()
    assert kl_only.fires(run(1.0, 0.5)) is None
    assert kl_only.fires(run(1.0, kls=(0.0,))) == "kl"
    assert prm_only.fires(run(1.0, 0.5)) == "prm_decline"
    assert prm_only.fires(run(1.0, 1.0, 1.0, 1.0, kls=(0.0,) * 4)) is None


def test_replay_stops_at_the_first_firing_step() -> None:
    steps = run(0.2, 0.6, 0.9, 0.5, 0.4)
    assert replay(DACGPolicy(), steps) == StopDecision(4, "prm_decline")
    assert replay(KLOnly(), run(1.0, 1.0, kls=(0.5, 0.001))) == StopDecision(2, "kl")


def test_replay_without_a_firing_rule_reports_budget_or_dry_source() -> None:
    rising = [float(t) for t in range(1, 21)]
    assert replay(DACGPolicy(), run(*rising)) == StopDecision(20, "budget")
    assert replay(DACGPolicy(), run(*rising[:11])) == StopDecision(11, "source_dry")
    assert replay(DACGPolicy(), run(*rising[:11]), budget=11) == StopDecision(11, "budget")
    with pytest.raises(ValueError):
        replay(DACGPolicy(), [])


def test_replay_never_looks_ahead() -> None:
    """The decision at step t depends on steps[:t] only, so later steps cannot move it."""
    prefix = run(0.2, 0.6, 0.9, 0.5)
    longer = prefix + [step(5, kl=0.0, reward=-3.0)]
    assert replay(DACGPolicy(), prefix) == replay(DACGPolicy(), longer) == StopDecision(
        4, "prm_decline")


def test_fixed_budget_stops_at_k_or_the_last_step() -> None:
    steps = run(*[0.0] * 11)
    assert replay(FixedBudget(3), steps) == StopDecision(3, "fixed_k")
    assert replay(FixedBudget(1), steps) == StopDecision(1, "fixed_k")
    assert replay(FixedBudget(20), steps) == StopDecision(11, "source_dry")
    assert replay(FixedBudget(20), run(*[0.0] * 20)) == StopDecision(20, "fixed_k")
    with pytest.raises(ValueError):
        FixedBudget(0)


def test_policy_from_name() -> None:
    t = Thresholds(delta=0.02, alpha=0.4, alpha_c=0.03, kl_delta=0.05, prm_alpha=0.6)
    assert policy_from_name("dacg", t) == DACGPolicy(0.02, 0.4, 0.03)
    assert policy_from_name(" KL ", t) == KLOnly(0.05)
    assert policy_from_name("prm", t) == PRMOnly(0.6)
    assert policy_from_name("k=5", t) == FixedBudget(5)
    assert [policy_from_name(n, t).name for n in ("dacg", "kl", "prm", "k=20")] == [
        "dacg", "kl", "prm", "k=20"]
    for bad in ("", "k=0", "k=", "k=-1", "k=x", "oracle", "dacg2"):
        with pytest.raises(ValueError, match="unknown stopping policy") as error:
            policy_from_name(bad, t)
        assert "\n" not in str(error.value)


def test_query_and_report_build_policies_from_the_same_frozen_thresholds() -> None:
    """`dacg query` and `dacg bench report` must stop at the same step on the same
    evidence: both read the shipped frozen thresholds, and build the same policies."""
    from pipeline.cli import thresholds_in_force
    from pipeline.evaluation.cli import _thresholds
    from pipeline.evaluation.replay import policies
    from pipeline.resources import shipped

    frozen = json.loads(shipped("data/eval/thresholds.json").read_text())["thresholds"]
    query_side, report_side = thresholds_in_force(None), _thresholds(None)
    assert query_side == report_side == Thresholds(**frozen)
    table = policies(report_side)
    for name, column in (("dacg", "DACG"), ("kl", "KL-only"), ("prm", "PRM-only")):
        assert policy_from_name(name, query_side) == table[column]
    assert policy_from_name("dacg", query_side) == DACGPolicy(
        frozen["delta"], frozen["alpha"], frozen["alpha_c"])


def test_prm_decline_is_strict_at_exactly_alpha_below_the_best() -> None:
    """r_t < max r - alpha: a reward exactly alpha below the best does not fire (values
    chosen so 1.0 - 0.5 is exact in binary)."""
    rule = PRMDecline(alpha=0.5)
    assert rule.fires(run(1.0, 0.5)) is None
    assert rule.fires(run(1.0, 0.4375)) == "prm_decline"
    assert DACGPolicy(delta=0.0, alpha=0.5).fires(run(1.0, 0.5)) is None

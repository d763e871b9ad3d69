"""Posterior calibration and the PRM reward gap (issue 16, item 3), checked by hand."""

from __future__ import annotations

import pytest

from pipeline.evaluation.analyses import pair_margin, reliability, reward_gap
from pipeline.trajectory import StepRecord


def _step(q: str, t: int, label: str, top: float, reward: float | None = None) -> StepRecord:
    other = "NoEffect" if label == "Beneficial" else "Beneficial"
    rest = 1.0 - top
    return StepRecord(q, t, [], [], {}, [], {label: top, other: rest / 2, "Harmful": rest / 2},
                      True, label, 0.0, {}, {}, "", reward)


def test_ece_by_hand() -> None:
    """Bin 0.9-1.0: confidences 0.95, 0.95, 0.95, 0.95, one right -> |0.25 - 0.95| = 0.7;
    bin 0.6-0.7: 0.65, 0.65, both right -> 0.35. ECE = (4 * 0.7 + 2 * 0.35) / 6."""
    runs = {"a": [_step("a", 1, "Beneficial", 0.95), _step("a", 2, "NoEffect", 0.95)],
            "b": [_step("b", 1, "NoEffect", 0.95), _step("b", 2, "NoEffect", 0.95),
                  _step("b", 3, "Beneficial", 0.65), _step("b", 4, "Beneficial", 0.65)]}
    truth = {"a": "Beneficial", "b": "Beneficial"}
    result = reliability(runs, truth, ("Beneficial", "NoEffect"))
    assert result.count == (2, 4)
    assert result.accuracy == pytest.approx((1.0, 0.25))
    assert result.confidence == pytest.approx((0.65, 0.95))
    assert result.ece == pytest.approx((4 * 0.7 + 2 * 0.35) / 6)
    assert result.steps == 6


def test_uninformed_steps_and_other_classes_are_left_out() -> None:
    blank = StepRecord("a", 1, [], [], {}, [], {"Beneficial": 1 / 3, "NoEffect": 1 / 3,
                                               "Harmful": 1 / 3}, False, "NoEvidence", 0.0,
                       {}, {}, "")
    runs = {"a": [blank, _step("a", 2, "Beneficial", 0.85)],
            "h": [_step("h", 1, "Harmful", 0.9)]}
    result = reliability(runs, {"a": "Beneficial", "h": "Harmful"}, ("Beneficial", "NoEffect"))
    assert result.steps == 1 and result.ece == pytest.approx(0.15)


def test_reward_gap_and_pair_margin_by_hand() -> None:
    runs = {"a": [_step("a", 1, "NoEffect", 0.9, reward=-0.1),
                  _step("a", 2, "Beneficial", 0.9, reward=-0.5),
                  _step("a", 3, "Beneficial", 0.9, reward=-0.3)]}
    truth = {"a": "NoEffect"}
    gap = reward_gap(runs, truth, ("Beneficial", "NoEffect"))
    assert (gap.correct, gap.incorrect, gap.n_correct, gap.n_incorrect) == \
        pytest.approx((-0.1, -0.4, 1, 2))
    assert gap.gap == pytest.approx(0.3)
    margin, share, pairs = pair_margin(runs, truth)
    assert pairs == 2 and share == 1.0 and margin == pytest.approx((0.4 + 0.2) / 2)


def test_grounding_split_by_hand() -> None:
    from pipeline.evaluation.analyses import grounding_split
    from pipeline.evaluation.replay import Outcome

    outcomes = [Outcome("a", "NoEffect", "Beneficial", 12, "budget", 1),   # drifted
                Outcome("b", "NoEffect", "NoEffect", 4, "source_dry", 1),
                Outcome("c", "Beneficial", "NoEffect", 6, "source_dry", None)]  # never right
    groups = grounding_split(outcomes, {"a": True, "b": True, "c": False})
    assert (groups[True].queries, groups[True].drift, groups[True].abstracts) == (2, 0.5, 8.0)
    assert (groups[False].queries, groups[False].drift, groups[False].abstracts) == (1, 0.0, 6.0)

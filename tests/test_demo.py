"""`dacg demo`: the aggregate rows, the worked question's choice and its evidence, checked
by hand; and the command end to end on the shipped calibrated world."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.demo import evidence_at, summarise_policy, worked_question
from pipeline.evaluation.replay import Outcome
from pipeline.trajectory import StepRecord


def _outcome(q: str, truth: str, label: str, stop: int, first: int | None) -> Outcome:
    return Outcome(q, truth, label, stop, "x", first)


def test_rows_by_hand() -> None:
    outs = [_outcome("a", "NoEffect", "NoEffect", 2, 1),
            _outcome("b", "NoEffect", "Beneficial", 10, 1),      # drifted
            _outcome("c", "Beneficial", "Beneficial", 4, 2)]
    row = summarise_policy("k=20", outs)
    assert row.noeffect.value == 0.5 and row.drift.value == pytest.approx(1 / 3)
    assert row.steps.value == pytest.approx(16 / 3) and row.accuracy.value == pytest.approx(2 / 3)
    assert row.noeffect.low <= 0.5 <= row.noeffect.high
    assert row.steps.low >= 2 and row.steps.high <= 10


def test_worked_question_prefers_a_drift_dacg_avoids() -> None:
    full = [_outcome("a", "NoEffect", "NoEffect", 20, 1),
            _outcome("b", "NoEffect", "Beneficial", 20, 1)]
    dacg = [_outcome("a", "NoEffect", "NoEffect", 2, 1),
            _outcome("b", "NoEffect", "NoEffect", 2, 1)]
    assert worked_question({"k=20": full, "DACG": dacg}) == "b"
    assert worked_question({"k=20": full[:1], "DACG": dacg[:1]}) == "a"
    assert worked_question({"k=20": [], "DACG": []}) is None


def test_evidence_at_keeps_the_stop_paths_edges_read_by_then() -> None:
    def step(t: int, evidence: list[dict]) -> StepRecord:
        paths = [{"nodes": ["e1", "e2"], "polarities": [0], "beliefs": [0.8],
                  "strength": 0.3}]
        return StepRecord("q", t, [], evidence, {}, paths, {}, True, "NoEffect", 0.0, {}, {},
                          "")

    steps = [step(1, [{"head": "e1", "tail": "e2", "polarity": 0, "pmid": "1",
                       "sentence": "no difference"},
                      {"head": "e1", "tail": "e2", "polarity": 1, "pmid": "2",
                       "sentence": "it raised e2"}]),
             step(2, [{"head": "e1", "tail": "e2", "polarity": 0, "pmid": "3",
                       "sentence": "similar"}])]
    assert evidence_at(steps, 1) == [("e1", "e2", 0, "1", "no difference")]
    assert [e[3] for e in evidence_at(steps, 2)] == ["1", "3"]


def test_demo_prints_the_aggregate_and_a_worked_question() -> None:
    result = CliRunner().invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "k=20" in result.output and "DACG" in result.output
    words = " ".join(result.output.split())  # rich wraps long lines, at any word
    assert "Worked question" in words and "PMID 9" in words

"""Drift theorem and simulation (SPEC section 7): exact values, envelope, Monte Carlo, CLI."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from pipeline.simulation.cli import app
from pipeline.simulation.drift import (
    Scenario,
    clt_envelope,
    draw_reports,
    exact_vote_drift,
    noisy_or_drift,
    paper_scenarios,
    simulate,
    vote_drift,
)
from pipeline.simulation.drift_report import write_csv

TRIALS = 8000


def binomial_sum(t: int, p: float, wins: int) -> float:
    """P(Bin(t, p) >= wins) by direct summation, independent of scipy."""
    return sum(math.comb(t, k) * p**k * (1 - p) ** (t - k) for k in range(wins, t + 1))


def direct_vote_drift(t: int, b: float, tie_weight: float) -> float:
    p = 0.5 + b
    tie = math.comb(t, t // 2) * (p * (1 - p)) ** (t // 2) if t % 2 == 0 else 0.0
    return binomial_sum(t, p, t // 2 + 1) + tie_weight * tie


def direct_asymmetric_drift(t: int, b: float, s_pos: float, s_neg: float) -> float:
    """Noisy-OR with fixed confidences predicts Beneficial iff (1-s+)^k < (1-s-)^(t-k)."""
    wins = next(k for k in range(t + 1)
                if k * math.log(1 - s_pos) < (t - k) * math.log(1 - s_neg))
    return binomial_sum(t, 0.5 + b, wins)


def within_four_se(simulated: np.ndarray, expected: np.ndarray, trials: int) -> bool:
    se = np.sqrt(expected * (1 - expected) / trials)
    return bool(np.all(np.abs(simulated - expected) <= 4 * se + 1e-12))


@pytest.mark.parametrize("b", [0.05, 0.1, 0.2, 0.45])
@pytest.mark.parametrize("tie_weight", [0.5, 0.0])
def test_exact_drift_is_the_binomial_sum(b: float, tie_weight: float) -> None:
    ts = np.arange(1, 41)
    expected = [direct_vote_drift(int(t), b, tie_weight) for t in ts]
    np.testing.assert_allclose(exact_vote_drift(ts, b, tie_weight), expected, rtol=1e-12)


def test_tie_conventions() -> None:
    """Fair-coin ties: a non-decreasing staircase from D(1) = 1/2 + b. The theorem's
    convention (ties predict NoEffect) dips at even t, as the paper's proof sketch says."""
    ts = np.arange(1, 21)
    coin = exact_vote_drift(ts, 0.1)
    assert coin[0] == pytest.approx(0.6) and coin[1] == pytest.approx(0.6)
    assert np.all(np.diff(coin) >= -1e-15)
    strict = exact_vote_drift(ts, 0.1, tie_weight=0.0)
    assert np.all(strict[1::2] < strict[0::2])


@pytest.mark.parametrize("b", [0.01, 0.1, 0.2, 0.3])
def test_clt_envelope_strictly_increases_towards_one(b: float) -> None:
    envelope = clt_envelope(np.arange(1, 101), b)  # z <= 6.6: Phi not yet 1.0 in float64
    assert np.all(np.diff(envelope) > 0)
    assert envelope[0] > 0.5
    assert clt_envelope(10**6, b) == pytest.approx(1.0)


@pytest.mark.parametrize("b", [0.1, 0.2])
def test_simulated_vote_counting_matches_exact(b: float) -> None:
    (curve,) = simulate([Scenario("iid", "vote", b)], TRIALS, 20, seed=1)
    assert within_four_se(curve.drift, exact_vote_drift(np.arange(1, 21), b), TRIALS)


def test_simulated_asymmetric_matches_exact_and_dips_at_four() -> None:
    ts = range(1, 21)
    exact = np.array([direct_asymmetric_drift(t, 0.1, 0.6, 0.3) for t in ts])
    assert exact[3] < exact[2]  # structural dip: at t = 4 one positive no longer suffices
    assert exact[-1] > 0.99
    (curve,) = simulate([Scenario("asymmetric", "noisy-or", 0.1, s_neg=0.3)], TRIALS, 20, 2)
    assert within_four_se(curve.drift, exact, TRIALS)


def test_noisy_or_with_one_fixed_confidence_decides_as_vote_counting() -> None:
    rng = np.random.default_rng(3)
    positive, confidence = draw_reports(Scenario("iid", "noisy-or", 0.1), 2000, 20, rng)
    coin = rng.random(positive.shape) < 0.5
    np.testing.assert_array_equal(noisy_or_drift(positive, confidence, coin),
                                  vote_drift(positive, coin))


def test_correlated_reports_have_the_stated_marginal_and_lag_one_correlation() -> None:
    sc = Scenario("correlated", "noisy-or", 0.1, rho=0.5)
    positive, _ = draw_reports(sc, 50_000, 4, np.random.default_rng(4))
    x = positive.astype(float)
    assert x.mean() == pytest.approx(0.6, abs=0.01)
    for t in range(3):
        assert np.corrcoef(x[:, t], x[:, t + 1])[0, 1] == pytest.approx(0.5, abs=0.02)


def test_same_seed_same_table(tmp_path: Path) -> None:
    scenarios = paper_scenarios(0.1)
    write_csv(simulate(scenarios, 500, 8, seed=7), tmp_path / "a.csv")
    write_csv(simulate(scenarios, 500, 8, seed=7), tmp_path / "b.csv")
    write_csv(simulate(scenarios, 500, 8, seed=8), tmp_path / "c.csv")
    a = (tmp_path / "a.csv").read_bytes()
    assert a == (tmp_path / "b.csv").read_bytes()
    assert a != (tmp_path / "c.csv").read_bytes()


def cli() -> typer.Typer:
    """Mount the app as the lead does: `dacg simulate drift`."""
    root = typer.Typer(add_completion=False)

    @root.callback()
    def main() -> None:
        """Test root."""

    root.add_typer(app, name="simulate")
    return root


def test_cli_writes_png_and_csv(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli(), ["simulate", "drift", "--trials", "200", "--T", "5",
                                        "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "drift.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with (out / "drift.csv").open() as f:
        rows = list(csv.DictReader(f))
    simulated = [r for r in rows if r["ci_low"]]
    assert len(simulated) == len(paper_scenarios(0.1)) * 5
    assert {r["aggregator"] for r in rows} >= {"vote", "noisy-or", "exact vote", "CLT envelope"}
    assert all(float(r["ci_low"]) <= float(r["drift"]) <= float(r["ci_high"]) for r in simulated)
    assert "Drift risk D(t)" in result.output


@pytest.mark.parametrize("args", [["--trials", "0"], ["--T", "0"], ["--T", "-3"],
                                  ["--b", "0"], ["--b", "0.5"], ["--b", "-0.1"]])
def test_cli_rejects_bad_arguments_in_one_line(tmp_path: Path, args: list[str]) -> None:
    result = CliRunner().invoke(cli(), ["simulate", "drift", "--out", str(tmp_path), *args])
    assert result.exit_code == 2
    assert result.output.startswith("error: ")
    assert result.output.strip().count("\n") == 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not any(tmp_path.iterdir())

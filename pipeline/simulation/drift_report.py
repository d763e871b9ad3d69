"""Drift simulation outputs: the CSV table and the paper's two-panel figure.

matplotlib is imported inside ``plot`` only, so the CLI and the tests that do not draw stay
fast and work without a display.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.simulation.drift import Curve, clt_envelope, exact_vote_drift

# The paper's section 2 numbers, D(1) and D(20) in %, keyed by (scenario label, aggregator)
# for the default base bias b = 0.1. The paper gives no D(1) for the asymmetric case.
PAPER: dict[tuple[str, str], tuple[str, str]] = {
    ("iid b=0.1", "vote"): ("61", "81"),
    ("iid b=0.1", "noisy-or"): ("61", "81"),
    ("iid b=0.2", "vote"): ("71", "97"),
    ("iid b=0.2", "noisy-or"): ("71", "97"),
    ("correlated rho=0.5, b=0.1", "noisy-or"): ("59", "70"),
    ("varying b~N(0.1, 0.05)", "noisy-or"): ("60", "79"),
    ("asymmetric s-=0.3 s+=0.6, b=0.1", "noisy-or"): ("-", "near 100"),
}
PAPER_DEPTH = 20


def iid_biases(curves: list[Curve]) -> list[float]:
    """Biases of the i.i.d. scenarios: the ones the theorem's exact curve applies to."""
    return sorted({c.scenario.b for c in curves if c.scenario.kind == "iid"})


def write_csv(curves: list[Curve], path: Path) -> None:
    """Long format, one row per (scenario, aggregator, t); theory rows have no interval."""
    depth = len(curves[0].drift)
    ts = np.arange(1, depth + 1)
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["scenario", "aggregator", "t", "drift", "ci_low", "ci_high"])
        for c in curves:
            for t, d, lo, hi in zip(ts, c.drift, c.low, c.high, strict=True):
                out.writerow([c.scenario.label, c.scenario.aggregator, t,
                              f"{d:.6f}", f"{lo:.6f}", f"{hi:.6f}"])
        for b in iid_biases(curves):
            for name, values in (("exact vote", exact_vote_drift(ts, b)),
                                 ("CLT envelope", clt_envelope(ts, b))):
                for t, d in zip(ts, values, strict=True):
                    out.writerow([f"iid b={b:g}", name, t, f"{d:.6f}", "", ""])


@dataclass(frozen=True)
class Comparison:
    """One scenario the paper reports: its D(1) and D(20) beside ours, in %. ``exact`` is the
    binomial value where it applies (i.i.d. reports, one fixed confidence), else None."""

    scenario: str
    aggregator: str
    paper_1: str
    ours_1: float
    exact_1: float | None
    paper_20: str
    ours_20: float
    exact_20: float | None


def paper_comparison(curves: list[Curve]) -> list[Comparison]:
    """Rows for the scenarios the paper reports; empty when the run is shorter than T = 20."""
    if len(curves[0].drift) < PAPER_DEPTH:
        return []
    rows = []
    for c in curves:
        sc = c.scenario
        if (sc.label, sc.aggregator) not in PAPER:
            continue
        paper_1, paper_20 = PAPER[sc.label, sc.aggregator]
        exact = 100 * exact_vote_drift([1, PAPER_DEPTH], sc.b) if sc.kind == "iid" else None
        rows.append(Comparison(sc.label, sc.aggregator,
                               paper_1, 100 * float(c.drift[0]),
                               None if exact is None else float(exact[0]),
                               paper_20, 100 * float(c.drift[PAPER_DEPTH - 1]),
                               None if exact is None else float(exact[1])))
    return rows


def plot(curves: list[Curve], b: float, path: Path) -> None:
    """Left: vote vs noisy-OR on i.i.d. reports with the exact curve and CLT envelope.
    Right: the departures, against the i.i.d. noisy-OR curve at the same base bias b."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    depth = len(curves[0].drift)
    ts = np.arange(1, depth + 1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4), sharey=True)
    colours = iter(plt.rcParams["axes.prop_cycle"].by_key()["color"])

    def draw(ax: plt.Axes, c: Curve, colour: str, style: str, marker: str, name: str) -> None:
        ax.fill_between(ts, 100 * c.low, 100 * c.high, color=colour, alpha=0.15, lw=0)
        ax.plot(ts, 100 * c.drift, style, color=colour, marker=marker, ms=4, label=name)

    for i, bias in enumerate(iid_biases(curves)):
        colour = next(colours)
        for c in curves:
            sc = c.scenario
            if sc.kind != "iid" or sc.b != bias:
                continue
            if sc.aggregator == "vote":
                draw(left, c, colour, "-", "o", f"vote, b={bias:g}")
            elif sc.spread:
                spread = f"s~U({sc.s_pos - sc.spread:g}, {sc.s_pos + sc.spread:g})"
                draw(left, c, "0.45", "-.", "^", f"noisy-OR, b={bias:g}, {spread}")
            else:
                draw(left, c, colour, "--", "x", f"noisy-OR, s={sc.s_pos:g}, b={bias:g}")
        left.plot(ts, 100 * exact_vote_drift(ts, bias), "k-", lw=0.7, marker="_", ms=9,
                  label=None if i else "exact vote (fair-coin ties)")
        left.plot(ts, 100 * clt_envelope(ts, bias), ":", color=colour, lw=1.5,
                  label=f"CLT envelope, b={bias:g}")
    left.set_title("Aggregators on i.i.d. reports")

    for c in curves:
        sc = c.scenario
        if sc.kind == "iid" and sc.aggregator == "noisy-or" and sc.b == b and not sc.spread:
            draw(right, c, "0.45", "--", "x", f"i.i.d. (reference), b={b:g}")
        elif sc.kind != "iid":
            draw(right, c, next(colours), "-", "o", sc.label)
    right.set_title("Departures (noisy-OR)")

    for ax in (left, right):
        ax.set_xlabel("retrieval depth t (reports)")
        ax.set_xticks(ts[:: max(1, depth // 10)])
        ax.grid(alpha=0.3)
        ax.set_ylim(35, 101)
        ax.legend(fontsize=7, loc="lower right")
    left.set_ylabel("drift risk D(t) = P(predict Beneficial | NoEffect), %")
    fig.suptitle(f"Evidence drift on a true-null query ({curves[0].trials:,} trials per curve; "
                 "shaded: 95% Wilson intervals)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)

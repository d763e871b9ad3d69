"""The calibration table: every target, the surrogate's value at the fit, the value a real
recording of the fitted world gives on the fit splits, and the residual."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.evaluation.harness import abstract_texts, trim_and_fill_labels
from pipeline.recordings import read_records
from pipeline.simulation.benchmark import load_benchmark
from pipeline.simulation.calibrated import Calibration
from pipeline.simulation.fit import FIT_SPLITS
from pipeline.simulation.probe import probe_scores
from pipeline.simulation.targets import PAPER_TARGETS, Target, baseline_statistics


def recorded_statistics(records: Path, benchmark: Path,
                        splits: Sequence[str] = FIT_SPLITS) -> dict[str, float]:
    """The baseline statistics of a real recording, on the chosen splits."""
    queries, source = load_benchmark(benchmark)
    runs = read_records([records])
    chosen = {q.id: runs[q.id] for q in queries if q.split in splits and q.id in runs}
    labels = trim_and_fill_labels(chosen, abstract_texts(source.abstracts()),
                                  {q.id: q.outcome.desired for q in queries})
    truth = {q.id: q.label.value for q in queries}
    return baseline_statistics(chosen, truth, {q: labels[q] is not None for q in chosen})


def probe_pairwise(records: Path, benchmark: Path, calibration: Calibration,
                   split: str = "test") -> tuple[float, int]:
    """The Bayes probe's pairwise accuracy on the split's preference pairs (the PRM's
    ceiling there), and how many pairs."""
    from dataclasses import replace

    from pipeline.evaluation.analyses import pair_margin

    queries, source = load_benchmark(benchmark)
    runs = read_records([records])
    scored = {}
    for q in queries:
        if q.split != split or q.id not in runs:
            continue
        keys = [k for k in source.answer_key(q.id) if k.kind != "review"]
        positions = {k.pmid: (i + 0.5) / q.n_reports for i, k in enumerate(keys)}
        ends = (q.query().intervention.id, q.query().outcome.id)
        scores = probe_scores(runs[q.id], ends, q.outcome.desired, positions, calibration)
        scored[q.id] = [replace(s, reward=r) for s, r in zip(runs[q.id], scores, strict=True)]
    _, share, pairs = pair_margin(scored, {q.id: q.label.value for q in queries})
    return share, pairs


def _value(t: Target, v: float) -> str:
    return f"{100 * v:.1f}" if t.kind == "share" else f"{v:.2f}"


def calibration_markdown(fitted: Mapping[str, Any], recorded: Mapping[str, float]) -> str:
    """Target / surrogate at the fit / recorded / residual (recorded - target, and in SE)."""
    surrogate = {row["name"]: row["surrogate"] for row in fitted["targets"]}
    lines = ["| Target (shares in %) | Paper | Fit (surrogate) | Recorded | Residual | "
             "Residual / SE |", "|---|---:|---:|---:|---:|---:|"]
    for t in PAPER_TARGETS:
        got = recorded[t.name]
        scale = 100 if t.kind == "share" else 1
        name = t.name if t.fitted else f"{t.name} (not fitted)"
        lines.append(f"| {name} | {_value(t, t.value)} | {_value(t, surrogate[t.name])} | "
                     f"{_value(t, got)} | {scale * (got - t.value):+.2f} | "
                     f"{(got - t.value) / t.se:+.2f} |")
    total = sum(((recorded[t.name] - t.value) / t.se) ** 2 for t in PAPER_TARGETS
                if t.fitted)
    lines.append(f"\nLoss (sum of squared residuals in SE): {total:.1f} recorded, "
                 f"{fitted['fit']['best_loss']:.1f} at the fit (surrogate).\n")
    params = fitted["parameters"]
    lines += ["| Parameter | Fitted |", "|---|---:|"]
    lines += [f"| {k} | {v:g} |" for k, v in params.items()]
    return "\n".join(lines) + "\n"


def write_calibration(records: Path, benchmark: Path, fitted_file: Path, out: Path) -> Path:
    fitted = json.loads(fitted_file.read_text(encoding="utf-8"))
    text = calibration_markdown(fitted, recorded_statistics(records, benchmark))
    share, pairs = probe_pairwise(records, benchmark, Calibration.from_json(fitted["parameters"]))
    text += (f"\nBayes probe (the world's own model, each study's position known): pairwise "
             f"accuracy {100 * share:.1f}% on the {pairs} test preference pairs, a reference "
             f"for the PRM, not a bound on it (paper's PRM: 88.1%).\n")
    out.mkdir(parents=True, exist_ok=True)
    (out / "calibration.md").write_text(text, encoding="utf-8")
    return out / "calibration.md"

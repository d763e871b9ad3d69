"""Files around the calibration fit: measure the reading model from a recording, run the
fit, and write the fitted world (parameters, residuals, provenance) as JSON."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline.recordings import read_records, sha256_file
from pipeline.simulation.benchmark import load_benchmark
from pipeline.simulation.calibrated import WORLD_NAME, calibration_json
from pipeline.simulation.fit import BOUNDS, FIT_GENERATIONS, FIT_SPLITS, fit, residual_rows
from pipeline.simulation.surrogate import measure_reading_model, reading_model_json


def _commit() -> str:
    """The commit the fit ran on (the extractor's version matters), or 'unknown'."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True, cwd=Path(__file__).parent)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def fit_world(records: Path, benchmark: Path, out: Path, seed: int, maxiter: int | None,
              popsize: int, echo: Callable[[str], None]) -> Path:
    maxiter = maxiter or FIT_GENERATIONS
    queries, source = load_benchmark(benchmark)
    runs = read_records([records])
    keys = {key.pmid: key for topic in source.topic_ids for key in source.answer_key(topic)}
    ends = {q.id: (q.query().intervention.id, q.query().outcome.id) for q in queries}
    model = measure_reading_model({q: s for q, s in runs.items() if q in ends}, keys, ends)
    result = fit(model, seed, maxiter, popsize)
    rows = residual_rows(result.statistics)
    report: dict[str, Any] = {
        "world": WORLD_NAME,
        "parameters": calibration_json(result.calibration),
        "fit": {
            "splits": list(FIT_SPLITS), "seed": seed, "classes": ["Beneficial", "NoEffect"],
            "optimizer": f"scipy.optimize.differential_evolution(maxiter={maxiter}, "
                         f"popsize={popsize}, polish=False, seed={seed})",
            "bounds": {k: list(v) for k, v in BOUNDS.items()},
            "loss": "sum of squared residuals in standard errors",
            "evaluations": result.evaluations, "best_loss": round(result.loss, 4),
            "commit": _commit(),
            "reading_model_from": {str(records): sha256_file(records)},
        },
        "targets": [{"name": t.name, "paper": t.value, "se": round(t.se, 4),
                     "surrogate": round(value, 4), "residual_se": round(res, 3),
                     "source": t.source, "fitted": t.fitted} for t, value, res in rows],
        "reading_model": reading_model_json(model),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for t, value, res in rows:
        echo(f"{t.name:28s} target {t.value:7.3f}  fitted {value:7.3f}  residual {res:+6.2f} SE")
    echo("parameters: " + ", ".join(f"{k} {v:g}" for k, v in
                                     calibration_json(result.calibration).items()))
    return out

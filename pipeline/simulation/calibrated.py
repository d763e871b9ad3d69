"""The calibrated world ("paper"): the seeded literature plus the mechanisms real retrieval
has and the original simulator lacks, each with one parameter (issue 16).

- Favourable findings: a study of a null effect reports a favourable one with probability
  phi0 g(u), a study of a real benefit with phi1 g(u), where g(u) = 1 + c (2u - 1) and u
  in (0, 1) is the study's position in the relevance ranking (large, conservative trials
  first). The theorem's vote-counting model is phi0 = 1/2 + b.
- Heterogeneous true effects: each query shifts both probabilities on the logit scale by
  N(0, effect_sd), so some benefits are small and some nulls attract more spin.
- Relevance decays with rank: the study at rank r is about the queried outcome with
  probability exp(-relevance_decay r); otherwise it is an off-target study of another
  outcome of the same intervention, which says nothing about the query's.
- Random reporting errors: with probability noise a study reports a direction drawn at
  random (+, none, -), whatever the truth; unlike the bias, this does not favour benefit.
- Literature size: log-normal with median median_reports and log-scale spread size_sd (at
  least one study, at most 40), so some searches run dry after a step or two while others
  outlast the budget.

The query set (entities, labels, splits) is the original world's for the same seed; only
the literatures differ.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from pipeline.model import Abstract, Label
from pipeline.resources import shipped
from pipeline.simulation.literature import SimulatedLiterature
from pipeline.simulation.rendering import render_direct, render_study
from pipeline.simulation.vocabulary import DOMAINS, TERMS, SimulationError
from pipeline.simulation.world import (
    Planned,
    SimConfig,
    SimQuery,
    Study,
    draw_verdict,
    mentioned_mechanism,
    ranked_studies,
    study_sizes,
)

WORLD_NAME = "paper"
FITTED_FILE = "data/worlds/paper.json"  # shipped (pipeline.resources)
HARM_DETECTION = (0.65, 0.3)
MAX_REPORTS = 40  # Harmful truth: detected with 0.65 - 0.3 u, as before


def parameter(default: float, low: float, high: float) -> Any:
    """A calibration parameter: its default and the range `dacg simulate fit` searches."""
    return field(default=default, metadata={"bounds": (low, high)})


@dataclass(frozen=True, slots=True)
class Calibration:
    """The eight fitted parameters of the calibrated world (see the module docstring)."""

    null_favourable: float = parameter(0.6, 0.2, 0.9)
    """phi0: mean share of null-effect studies reporting a favourable finding."""
    power: float = parameter(0.8, 0.3, 0.99)
    """phi1: mean share of real-benefit studies reporting a favourable finding."""
    rank_gradient: float = parameter(0.5, 0.0, 1.0)
    """c in g(u) = 1 + c (2u - 1): how much more often later-ranked studies report favourably."""
    effect_sd: float = parameter(0.5, 0.0, 2.5)
    """Per-query logit-scale spread of both shares (heterogeneous true effects)."""
    relevance_decay: float = parameter(0.05, 0.0, 0.3)
    """P(the study at rank r is about the queried outcome) = exp(-decay r)."""
    noise: float = parameter(0.05, 0.0, 0.4)
    """Share of studies reporting a random direction, whatever the truth."""
    median_reports: float = parameter(9.0, 3.0, 16.0)
    """Median literature size (studies per query, log-normal)."""
    size_sd: float = parameter(0.6, 0.2, 1.5)
    """Log-scale spread of the literature size."""

    def __post_init__(self) -> None:
        for name in ("null_favourable", "power", "noise"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise SimulationError(f"{name.replace('_', ' ')} must be in [0, 1], got "
                                      f"{getattr(self, name)}")
        for name in ("rank_gradient", "effect_sd", "relevance_decay", "size_sd"):
            if getattr(self, name) < 0:
                raise SimulationError(f"{name.replace('_', ' ')} must be non-negative")
        if not 0.0 < self.median_reports <= MAX_REPORTS:
            raise SimulationError(f"median reports must be in (0, 40], got "
                                  f"{self.median_reports}")

    def sim_config(self) -> SimConfig:
        """The original world's settings that still apply (reviews and mechanism
        sentences as before); the literature sizes are redrawn by `resized`."""
        return SimConfig()

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def bounds(cls) -> dict[str, tuple[float, float]]:
        """Each parameter's search range, in field order."""
        return {f.name: f.metadata["bounds"] for f in fields(cls)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        unknown = sorted(set(data) - set(cls.names()))
        if unknown:
            raise SimulationError(f"unknown calibration parameters: {', '.join(unknown)}")
        return cls(**{k: float(v) for k, v in data.items()})


def load_fitted(path: Path | None = None) -> Calibration:
    """The fitted parameters in `path` (default: the shipped ones, written by `dacg
    simulate fit`)."""
    path = path or shipped(FITTED_FILE)
    if not path.is_file():
        raise SimulationError(f"{path}: no fitted calibration (run `dacg simulate fit`)")
    return Calibration.from_json(json.loads(path.read_text(encoding="utf-8"))["parameters"])


def _logit(p: float) -> float:
    p = min(0.99, max(0.01, p))
    return math.log(p / (1.0 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def resized(queries: Sequence[SimQuery], seed: int, cal: Calibration) -> list[SimQuery]:
    """The queries with the calibrated world's literature sizes (drawn per query id, so
    a query keeps its size whatever else changes)."""
    out = []
    for q in queries:
        z = random.Random(f"{seed}:{WORLD_NAME}:size:{q.id}").gauss(0.0, 1.0)
        size = round(math.exp(math.log(cal.median_reports) + cal.size_sd * z))
        out.append(replace(q, n_reports=min(MAX_REPORTS, max(1, size))))
    return out


def finding_probabilities(label: Label, u: float, shift: float,
                          cal: Calibration) -> tuple[float, float]:
    """(P favourable, P unfavourable) for an on-target study at relevance position u."""
    g = 1.0 + cal.rank_gradient * (2.0 * u - 1.0)
    if label is Label.HARMFUL:
        harm = HARM_DETECTION[0] - HARM_DETECTION[1] * u
        spin = max(0.0, cal.null_favourable - 0.5) * g
        return min(1.0 - harm, max(0.0, spin)), harm
    base = cal.null_favourable if label is Label.NO_EFFECT else cal.power
    return _sigmoid(_logit(base * g) + shift), 0.0


def plan_calibrated(query: SimQuery, seed: int, cal: Calibration) -> list[Study]:
    """The ranked studies of a query in the calibrated world (answer keys included)."""
    config = cal.sim_config()
    rng = random.Random(f"{seed}:{WORLD_NAME}:{query.id}")
    shift = rng.gauss(0.0, cal.effect_sd) if cal.effect_sd > 0 else 0.0
    others = [o for d in DOMAINS if d.name == query.domain for o in d.outcomes
              if o.name != query.outcome.name]
    sizes = study_sizes(rng, query.n_reports)
    planned: list[Planned] = []
    for i, size in enumerate(sizes):
        kind = "trial" if size >= 300 or rng.random() < 0.7 else "cohort"
        tail = query.outcome
        if rng.random() >= math.exp(-cal.relevance_decay * i):
            tail = rng.choice(others)
            verdict = rng.choice((1, 0, 0))  # its own outcome's result; the query never sees it
            kind = "offtarget"
        else:
            verdict = draw_verdict(rng, *finding_probabilities(
                query.label, (i + 0.5) / len(sizes), shift, cal))
        if rng.random() < cal.noise:
            verdict = rng.choice((1, 0, -1))
        mechanism = (None if kind == "offtarget"
                     else mentioned_mechanism(rng, query, config.mechanism_share))
        planned.append((kind, size, tail.name, verdict * tail.desired, mechanism))
    return ranked_studies(rng, query, planned, config.background_share)


class CalibratedLiterature(SimulatedLiterature):
    """The simulated literature with each query's studies planned by the calibrated
    world; the mechanism literature (E1 -> v, v -> E2) is the original world's."""

    def __init__(self, queries: Sequence[SimQuery], seed: int, calibration: Calibration,
                 batch_size: int = 1) -> None:
        super().__init__(queries, seed, calibration.sim_config(), batch_size)
        self.calibration = calibration

    def plan(self, query: SimQuery) -> list[Study]:
        return plan_calibrated(query, self.seed, self.calibration)

    def render(self, study: Study, query: SimQuery, rng: random.Random) -> Abstract:
        """An off-target study is written as a trial of its own outcome."""
        key = study.key
        if key.kind == "offtarget":
            other = replace(query, outcome=TERMS[key.tail], mechanism=None)
            return render_direct(replace(study, key=replace(key, kind="trial")), other, rng,
                                 avoid=query.outcome.name)
        return render_study(study, query, rng)


def calibration_json(cal: Calibration) -> dict[str, float]:
    return {k: round(v, 6) for k, v in asdict(cal).items()}

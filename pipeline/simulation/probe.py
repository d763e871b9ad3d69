"""The Bayes probe: a ceiling for the PRM's pairwise accuracy on the calibrated world.

It scores each recorded step with the exact probability, under the world's own generative
model, that the step's label is the true one, given the direct findings read up to that
step. It knows what no feature may: the fitted parameters and each study's position in
its literature. Heterogeneous effects are integrated out by Gauss-Hermite quadrature.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from pipeline.model import Label
from pipeline.simulation.calibrated import Calibration, finding_probabilities
from pipeline.trajectory import StepRecord

LABELS = (Label.BENEFICIAL, Label.NO_EFFECT, Label.HARMFUL)
PRIOR = (70 / 173, 70 / 173, 33 / 173)  # every split's label mix
NODES = 21


def finding_likelihood(verdict: int, label: Label, u: float, shift: float,
                       cal: Calibration) -> float:
    """P(a study at position u reports `verdict` (+1 favourable, 0, -1) | label, shift),
    with the world's random reporting errors mixed in."""
    favourable, unfavourable = finding_probabilities(label, u, shift, cal)
    model = {1: favourable, -1: unfavourable, 0: 1.0 - favourable - unfavourable}[verdict]
    return (1.0 - cal.noise) * model + cal.noise / 3.0


def label_probabilities(findings: Sequence[tuple[int, float]],
                        cal: Calibration) -> dict[str, float]:
    """P(label | findings) for findings (verdict, position u) of one query."""
    x, w = np.polynomial.hermite_e.hermegauss(NODES)  # weight exp(-x^2 / 2)
    w = w / w.sum()
    joint = []
    for label, prior in zip(LABELS, PRIOR, strict=True):
        shifts = cal.effect_sd * x if cal.effect_sd > 0 else np.zeros(1)
        weights = w if cal.effect_sd > 0 else np.ones(1)
        like = [math.prod(finding_likelihood(v, label, u, float(s), cal) for v, u in findings)
                for s in shifts]
        joint.append(prior * float(np.dot(weights, like)))
    total = sum(joint)
    return {label.value: p / total for label, p in zip(LABELS, joint, strict=True)}


def probe_scores(steps: Sequence[StepRecord], ends: tuple[str, str], desired: int,
                 positions: Mapping[str, float], cal: Calibration) -> list[float]:
    """P(step label is true | findings read so far) for each step of one query.
    `positions` maps a PMID of the query's literature to its position u."""
    findings: list[tuple[int, float]] = []
    seen: set[str] = set()
    scores = []
    for step in steps:
        for item in step.new_evidence:
            pmid = item["pmid"]
            if (item["head"], item["tail"]) == ends and pmid in positions and pmid not in seen:
                seen.add(pmid)
                findings.append((int(item["polarity"]) * desired, positions[pmid]))
        scores.append(label_probabilities(findings, cal).get(step.label, 0.0))
    return scores

"""MedEvidence: DACG's answers on real Cochrane questions, scored 5-way (docs/evaluation.md).

A question's studies are read one per step in publication-date order (the way evidence
accumulated for the review). The five answers come from the state at the stop:
- no path at all, or fewer than `min_studies` studies with evidence -> insufficient data;
- a posterior whose largest probability is below `certainty` -> uncertain effect;
- else the posterior's label: Increases -> higher, Decreases -> lower, NoEffect -> no
  difference.
The two thresholds are tuned on one half of dev (even question ids) and reported on the
other half (odd ids); the 3-way accuracy on definite answers needs no tuning.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.metrics import recall_score

from pipeline.evaluation.metrics import bootstrap_ci
from pipeline.trajectory import StepRecord

ANSWERS = ("higher", "lower", "no difference", "uncertain effect", "insufficient data")
DEFINITE = {"higher": "Increases", "lower": "Decreases", "no difference": "NoEffect"}
_FROM_LABEL = {label: answer for answer, label in DEFINITE.items()}
CERTAINTY_GRID = (0.0, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
MIN_STUDIES_GRID = (1, 2, 3)


@dataclass(frozen=True)
class FiveWay:
    """How a stopped state maps onto MedEvidence's five answers."""

    certainty: float = 0.0
    min_studies: int = 1

    def answer(self, read: Sequence[StepRecord]) -> str:
        """The answer from the steps read up to the stop (the last one is the stop)."""
        last = read[-1]
        studies = {e["pmid"] for s in read for e in s.new_evidence}
        if not last.informed or len(studies) < self.min_studies:
            return "insufficient data"
        if max(last.posterior.values()) < self.certainty:
            return "uncertain effect"
        return _FROM_LABEL[last.label]


def halves(question_ids: Sequence[str]) -> tuple[list[str], list[str]]:
    """(tuning half, held-out half): even and odd question ids."""
    tuning = [q for q in question_ids if int(q) % 2 == 0]
    return tuning, [q for q in question_ids if int(q) % 2 == 1]


def answers_at(mapping: FiveWay, runs: Mapping[str, Sequence[StepRecord]],
               stops: Mapping[str, int]) -> dict[str, str]:
    return {q: mapping.answer([s for s in runs[q] if s.step <= stops[q]]) for q in stops}


def five_way_accuracy(answers: Mapping[str, str], gold: Mapping[str, str]) -> float:
    return float(np.mean([answers[q] == gold[q] for q in answers]))


def tune_mapping(runs: Mapping[str, Sequence[StepRecord]], stops: Mapping[str, int],
                 gold: Mapping[str, str]) -> tuple[FiveWay, float]:
    """The grid point with the best 5-way accuracy on these questions (first on ties)."""
    best, best_accuracy = FiveWay(), -1.0
    for certainty, min_studies in itertools.product(CERTAINTY_GRID, MIN_STUDIES_GRID):
        mapping = FiveWay(certainty, min_studies)
        accuracy = five_way_accuracy(answers_at(mapping, runs, stops), gold)
        if accuracy > best_accuracy:
            best, best_accuracy = mapping, accuracy
    return best, best_accuracy


@dataclass(frozen=True)
class MedEvidenceRow:
    """One policy on MedEvidence dev: the tuned mapping, the held-out 5-way accuracy with
    its bootstrap CI and per-answer recall, 5-way on all of dev, and 3-way on definite
    answers (all of dev; no tuning involved)."""

    mapping: FiveWay
    tuning_accuracy: float
    held_out_n: int
    held_out_accuracy: float
    ci_low: float
    ci_high: float
    recall: dict[str, float]
    all_accuracy: float
    three_way_n: int
    three_way_accuracy: float
    mean_steps: float


def evaluate_policy(runs: Mapping[str, Sequence[StepRecord]], stops: Mapping[str, int],
                    gold: Mapping[str, str], seed: int = 0) -> MedEvidenceRow:
    tuning, held_out = halves(sorted(stops, key=int))
    mapping, tuning_accuracy = tune_mapping(runs, {q: stops[q] for q in tuning}, gold)
    answers = answers_at(mapping, runs, stops)
    held = [answers[q] == gold[q] for q in held_out]
    low, high = bootstrap_ci(held, seed=seed)
    recall = recall_score([gold[q] for q in held_out], [answers[q] for q in held_out],
                          labels=list(ANSWERS), average=None, zero_division=0)
    definite = [q for q in sorted(stops) if gold[q] in DEFINITE]
    label_at_stop = {q: next(s.label for s in runs[q] if s.step == stops[q]) for q in definite}
    return MedEvidenceRow(
        mapping=mapping, tuning_accuracy=tuning_accuracy, held_out_n=len(held_out),
        held_out_accuracy=float(np.mean(held)), ci_low=low, ci_high=high,
        recall={a: float(r) for a, r in zip(ANSWERS, recall, strict=True)},
        all_accuracy=five_way_accuracy(answers, gold), three_way_n=len(definite),
        three_way_accuracy=float(np.mean([label_at_stop[q] == DEFINITE[gold[q]]
                                          for q in definite])),
        mean_steps=float(np.mean(list(stops.values()))))


def markdown(rows: Mapping[str, MedEvidenceRow]) -> str:
    header = ("| Method | Steps | 5-way held-out % (95% CI) | 5-way all dev % | "
              "3-way definite % | recall: higher / lower / no diff / uncertain / "
              "insufficient | mapping (certainty, min studies) |")
    lines = [header, "|---|---:|---:|---:|---:|---|---|"]
    for name, r in rows.items():
        recall = " / ".join(f"{r.recall[a]:.2f}" for a in ANSWERS)
        lines.append(
            f"| {name} | {r.mean_steps:.2f} | {100 * r.held_out_accuracy:.1f} "
            f"({100 * r.ci_low:.1f}–{100 * r.ci_high:.1f}) | {100 * r.all_accuracy:.1f} | "
            f"{100 * r.three_way_accuracy:.1f} | {recall} | "
            f"{r.mapping.certainty:g}, {r.mapping.min_studies} |")
    return "\n".join(lines) + "\n"


def majority_note(gold: Mapping[str, str]) -> str:
    """The majority-answer baseline on the same questions, as a line under the table."""
    answers = [gold[q] for q in sorted(gold, key=int)]
    majority = max(ANSWERS, key=answers.count)
    _, held_out = halves(sorted(gold, key=int))
    held = float(np.mean([gold[q] == majority for q in held_out]))
    return (f"Majority answer ({majority!r}, {answers.count(majority)} of {len(answers)}): "
            f"{100 * held:.1f}% on the held-out half, "
            f"{100 * answers.count(majority) / len(answers):.1f}% on all of dev.\n")

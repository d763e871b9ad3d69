"""Training the confidence model and the fallback classifier on Evidence Inference
evidence passages.

Rows whose article is in the dev file are dropped (the dev set measures the extractor and
must never be trained on). Each remaining passage is read by the rules exactly as an
abstract would be, and every candidate sentence becomes one example with the prompt's
label.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.extraction import fallback
from pipeline.extraction.calibration import ConfidenceModel, fit
from pipeline.extraction.evaluate import (
    DECREASED,
    INCREASED,
    NO_DIFFERENCE,
    Prompt,
    read_prompts,
)
from pipeline.extraction.extractor import RuleExtractor
from pipeline.extraction.rules import Candidate
from pipeline.model import Abstract

LABEL_POLARITY = {INCREASED: 1, DECREASED: -1, NO_DIFFERENCE: 0}


@dataclass(frozen=True)
class TrainingSet:
    examples: list[tuple[Candidate, int]]
    groups: list[str]
    rows: int
    excluded_rows: int
    unread_rows: int


def passages(train_path: Path, exclude_path: Path | None) -> tuple[list[Prompt], int, int]:
    """The evidence passages (as prompts whose abstract is the passage) of articles not in
    `exclude_path`, with the number of rows read and dropped."""
    excluded = {p.pmcid for p in read_prompts(exclude_path)} if exclude_path else set()
    rows = read_prompts(train_path, text_field="evidence")
    kept = [prompt for prompt in rows if prompt.pmcid not in excluded]
    return kept, len(rows), len(rows) - len(kept)


def training_set(train_path: Path, exclude_path: Path | None,
                 extractor: RuleExtractor | None = None) -> TrainingSet:
    """Examples from the evidence passages of articles not in `exclude_path`."""
    reader = extractor or RuleExtractor(calibration=None)
    examples: list[tuple[Candidate, int]] = []
    groups: list[str] = []
    unread = 0
    prompts, rows, dropped = passages(train_path, exclude_path)
    for prompt in prompts:
        found = reader.candidates(Abstract("EI1", "", prompt.abstract), prompt.query)
        if not found:
            unread += 1
        for candidate in found:
            examples.append((candidate, LABEL_POLARITY[prompt.label]))
            groups.append(prompt.pmcid)
    return TrainingSet(examples, groups, rows, dropped, unread)


def train_confidence_model(train_path: Path, exclude_path: Path | None
                           ) -> tuple[ConfidenceModel, TrainingSet]:
    data = training_set(train_path, exclude_path)
    model = fit(data.examples, data.groups)
    meta = dict(model.meta or {})
    meta.update({"train_rows": data.rows, "excluded_dev_rows": data.excluded_rows,
                 "unread_rows": data.unread_rows, "source": train_path.name})
    return ConfidenceModel(model.weights, model.name, meta), data


def train_fallback_classifier(train_path: Path, exclude_path: Path | None
                              ) -> tuple[fallback.FallbackClassifier, int, int]:
    """The fallback classifier on the same passages; returns it with the number of
    passages used and dev-article rows dropped."""
    prompts, _, dropped = passages(train_path, exclude_path)
    model = fallback.fit([p.abstract for p in prompts],
                         [LABEL_POLARITY[p.label] for p in prompts],
                         [p.pmcid for p in prompts])
    meta = dict(model.meta or {})
    meta.update({"excluded_dev_rows": dropped, "source": train_path.name})
    return fallback.FallbackClassifier(model.vocabulary, model.intercept, meta), len(
        prompts), dropped

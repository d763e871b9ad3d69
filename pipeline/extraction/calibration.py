"""Calibrated confidence: how often is a rule reading with these signals right?

The rules decide the polarity; a small multinomial logistic regression over the reading's
signals (its polarity, cue strength, significance, negation, hedging, comparator flip,
how well the outcome matched) estimates the probability that the polarity is correct, and
that probability becomes the row's confidence. It is trained on Evidence Inference
evidence passages of articles outside the dev set (`dacg extract train`); its
weights are a small JSON file in data/models/ that the command reproduces exactly.
On the dev set it lifts macro-F1 by under a point (docs/extraction.md); its main purpose
is that confidences mean something to the noisy-OR belief downstream.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from pipeline.extraction.lexicon import VALENCE_CUES, WEAK_CUES
from pipeline.extraction.rules import NUMBERS_CUE, Candidate, Reading
from pipeline.resources import shipped

CLASSES = (-1, 0, 1)
MODEL_ENV = "DACG_CONFIDENCE_MODEL"
DEFAULT_MODEL = "data/models/confidence_lr.json"  # shipped (pipeline.resources)
MAX_CONFIDENCE = 0.95
MAX_KNOWN_FEATURE_SETS = 100_000


def features(candidate: Candidate) -> list[str]:
    """The reading's signals as binary features (no words: 800 training passages are too
    few to learn vocabulary from; cross-validation said so)."""
    reading = candidate.reading
    out = ["bias", f"adverse={candidate.adverse}", f"heads={bool(candidate.heads)}",
           f"comparators={bool(candidate.comparators)}",
           f"tail={'exact' if candidate.tail.exact else round(candidate.tail.score, 1)}"]
    if reading is None:
        return [*out, "rule=none"]
    polarity = reading.polarity
    out += [f"rule={polarity}", f"sig={reading.significance.name}",
            f"rule={polarity}&sig={reading.significance.name}",
            f"weak_cue={reading.cue in WEAK_CUES}", f"numbers={reading.cue == NUMBERS_CUE}",
            f"no_cue={not reading.cue}", f"flip={reading.flipped}", f"neg={reading.negated}",
            f"null_phrase={reading.null_phrase}", f"hedge={reading.hedged}",
            f"rule={polarity}&hedge={reading.hedged}",
            f"valence_cue_on_adverse={candidate.adverse and reading.cue in VALENCE_CUES}",
            f"stats={min(len(candidate.sentence.stats), 2)}"]
    return out


@dataclass(frozen=True)
class ConfidenceModel:
    """Multinomial logistic regression stored as feature -> weights per class."""

    weights: dict[str, tuple[float, float, float]]
    name: str = "calibrated"
    meta: dict[str, object] | None = None
    # features -> probabilities: readings share a few hundred feature sets
    _known: dict[tuple[str, ...], tuple[float, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def probabilities(self, candidate: Candidate) -> tuple[float, ...]:
        """P(class) for CLASSES, remembered per feature set."""
        key = tuple(features(candidate))
        known = self._known.get(key)
        if known is None:
            if len(self._known) > MAX_KNOWN_FEATURE_SETS:
                self._known.clear()
            known = self._known[key] = self._probabilities(key)
        return known

    def _probabilities(self, names: tuple[str, ...]) -> tuple[float, ...]:
        scores = np.zeros(len(CLASSES))
        for feature in names:
            w = self.weights.get(feature)
            if w is not None:
                scores += w
        exp = np.exp(scores - scores.max())
        return tuple(float(p) for p in exp / exp.sum())

    def refine(self, candidate: Candidate) -> Reading | None:
        """The rules' reading with confidence = P(its polarity is right)."""
        reading = candidate.reading
        if reading is None:
            return None
        probability = float(self.probabilities(candidate)[CLASSES.index(reading.polarity)])
        return replace(reading, confidence=round(min(MAX_CONFIDENCE, 0.95 * probability), 3))

    def save(self, path: Path) -> None:
        body = {"name": self.name, "classes": list(CLASSES), "meta": self.meta or {},
                "weights": {k: [round(float(x), 4) for x in v]
                            for k, v in sorted(self.weights.items())}}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(body, indent=1, sort_keys=True) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> ConfidenceModel:
        body = json.loads(path.read_text(encoding="utf-8"))
        if tuple(body.get("classes", ())) != CLASSES:
            raise ValueError(f"{path}: classes must be {list(CLASSES)}")
        weights = {k: (float(v[0]), float(v[1]), float(v[2]))
                   for k, v in body["weights"].items()}
        return cls(weights, str(body.get("name", "calibrated")), body.get("meta"))


def shipped_model(env: str, default: str) -> Path | None:
    """The weights file to load: $env when set ('none' turns the model off), else the
    shipped file; a missing shipped file is an error (MissingResource), never a silent
    fall back to rules only."""
    configured = os.environ.get(env)
    if configured and configured.lower() == "none":
        return None
    return Path(configured) if configured else shipped(default)


def load_default_model() -> ConfidenceModel | None:
    """The shipped weights ($DACG_CONFIDENCE_MODEL overrides; 'none' turns them off)."""
    path = shipped_model(MODEL_ENV, DEFAULT_MODEL)
    return ConfidenceModel.load(path) if path else None


def fit(examples: Sequence[tuple[Candidate, int]], groups: Sequence[str],
        c_values: Iterable[float] = (0.03, 0.1, 0.3, 1.0), name: str = "calibrated",
        folds: int = 5) -> ConfidenceModel:
    """Fit the regression; C is chosen by grouped cross-validation (groups = articles, so
    no article is in two folds) on log-loss, since what we want is calibration.
    Deterministic for the same examples."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss
    from sklearn.model_selection import GroupKFold

    rows = [dict.fromkeys(features(c), 1) for c, _ in examples]
    labels = np.array([label for _, label in examples])
    vectorizer = DictVectorizer()
    matrix = vectorizer.fit_transform(rows)
    losses: dict[float, float] = {}
    for c in c_values:
        predicted = np.zeros((len(labels), len(CLASSES)))
        for train, test in GroupKFold(n_splits=folds).split(matrix, labels, groups):
            model = LogisticRegression(C=c, max_iter=5000, fit_intercept=False)
            model.fit(matrix[train], labels[train])
            predicted[test] = model.predict_proba(matrix[test])
        losses[c] = float(log_loss(labels, predicted, labels=list(CLASSES)))
    best_c = min(losses, key=lambda c: (losses[c], c))
    model = LogisticRegression(C=best_c, max_iter=5000, fit_intercept=False)
    model.fit(matrix, labels)
    order = [list(model.classes_).index(k) for k in CLASSES]
    weights = {feature: (float(model.coef_[order[0], j]), float(model.coef_[order[1], j]),
                         float(model.coef_[order[2], j]))
               for feature, j in vectorizer.vocabulary_.items()}
    meta = {"examples": len(examples), "C": best_c,
            "cv_log_loss": {str(c): round(v, 4) for c, v in losses.items()}}
    return ConfidenceModel(weights, name, meta)

"""A text classifier for the sentence the rules cannot read.

When no sentence about the outcome gives the rules a reading (no cue, 'significantly
different between groups', a table-like list), the picker's best sentence is classified
by a TF-IDF (word 1-2-grams) + multinomial logistic regression into decrease / no
difference / increase. It never overrides a rule reading: on sentences the rules can read
a classifier of this size reads direction worse than they do (docs/extraction.md). It is
trained on Evidence Inference evidence passages of articles outside the dev set
(`dacg extract train`), and stored as a small JSON file of terms, idf and weights;
inference is plain Python (no scikit-learn at extraction time).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.extraction.calibration import shipped_model

CLASSES = (-1, 0, 1)
MODEL_ENV = "DACG_FALLBACK_MODEL"
DEFAULT_MODEL = "data/models/fallback_tfidf.json"  # shipped (pipeline.resources)
# scikit-learn's default token pattern, so training and inference see the same terms
TOKEN = re.compile(r"(?u)\b\w\w+\b")


def terms(text: str) -> list[str]:
    """Lower-case word unigrams and bigrams, as TfidfVectorizer(ngram_range=(1, 2))."""
    words = TOKEN.findall(text.lower())
    return words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]


@dataclass(frozen=True, slots=True)
class FallbackSettings:
    """When the fallback reads, and how much its rows are trusted."""

    # the outcome may be matched more loosely than for a rule reading (any of its
    # distinctive words), since the row's confidence carries the match score squared
    min_outcome_score: float = 0.15
    confidence_factor: float = 0.5  # x the classifier's probability: below rule readings


@dataclass(frozen=True)
class FallbackClassifier:
    """term -> (idf, weight per class), and an intercept per class (CLASSES order)."""

    vocabulary: dict[str, tuple[float, tuple[float, float, float]]]
    intercept: tuple[float, float, float]
    meta: dict[str, object] | None = None

    def probabilities(self, text: str) -> tuple[float, float, float]:
        """P(class) for CLASSES: sublinear tf x idf, l2-normalised, then the softmax."""
        counts = Counter(t for t in terms(text) if t in self.vocabulary)
        values = {t: (1.0 + math.log(n)) * self.vocabulary[t][0] for t, n in counts.items()}
        norm = math.sqrt(sum(v * v for v in values.values())) or 1.0
        scores = list(self.intercept)
        for term, value in values.items():
            weights = self.vocabulary[term][1]
            for k in range(3):
                scores[k] += weights[k] * value / norm
        top = max(scores)
        exp = [math.exp(s - top) for s in scores]
        total = sum(exp)
        return (exp[0] / total, exp[1] / total, exp[2] / total)

    def classify(self, text: str, directed: bool = False) -> tuple[int, float]:
        """The most probable polarity and its probability; `directed`: the sentence says
        the arms differed significantly, so the likelier direction, not 'no difference'
        (the words that say which way are what the classifier misses)."""
        probabilities = self.probabilities(text)
        classes = [k for k in range(3) if not (directed and CLASSES[k] == 0)]
        best = max(classes, key=probabilities.__getitem__)
        return CLASSES[best], probabilities[best]

    def save(self, path: Path) -> None:
        body = {"classes": list(CLASSES), "meta": self.meta or {},
                "intercept": [round(x, 4) for x in self.intercept],
                "vocabulary": {t: [round(idf, 4), *(round(w, 4) for w in weights)]
                               for t, (idf, weights) in sorted(self.vocabulary.items())}}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(body, sort_keys=True) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> FallbackClassifier:
        body = json.loads(path.read_text(encoding="utf-8"))
        if tuple(body.get("classes", ())) != CLASSES:
            raise ValueError(f"{path}: classes must be {list(CLASSES)}")
        vocabulary = {t: (float(v[0]), (float(v[1]), float(v[2]), float(v[3])))
                      for t, v in body["vocabulary"].items()}
        a, b, c = (float(x) for x in body["intercept"])
        return cls(vocabulary, (a, b, c), body.get("meta"))


def load_default_classifier() -> FallbackClassifier | None:
    """The shipped weights ($DACG_FALLBACK_MODEL overrides; 'none' turns them off)."""
    path = shipped_model(MODEL_ENV, DEFAULT_MODEL)
    return FallbackClassifier.load(path) if path else None


def fit(texts: Sequence[str], labels: Sequence[int], groups: Sequence[str],
        c_values: Sequence[float] = (1.0, 3.0, 10.0, 30.0), folds: int = 5,
        min_df: int = 3) -> FallbackClassifier:
    """TF-IDF + logistic regression; C chosen by cross-validation grouped by article on
    macro-F1. Deterministic for the same data."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import f1_score
    from sklearn.model_selection import GroupKFold

    y = np.array(labels)

    def model(c: float) -> LogisticRegression:
        return LogisticRegression(C=c, max_iter=5000)

    def vectorizer() -> TfidfVectorizer:
        return TfidfVectorizer(min_df=min_df, sublinear_tf=True, analyzer=terms)

    scores: dict[float, float] = {}
    for c in c_values:
        predicted = np.zeros(len(y), dtype=int)
        for train, test in GroupKFold(n_splits=folds).split(texts, y, groups):
            vec = vectorizer()
            clf = model(c).fit(vec.fit_transform([texts[i] for i in train]), y[train])
            predicted[test] = clf.predict(vec.transform([texts[i] for i in test]))
        scores[c] = float(f1_score(y, predicted, average="macro"))
    best_c = max(scores, key=lambda c: (scores[c], -c))
    vec = vectorizer()
    clf = model(best_c).fit(vec.fit_transform(texts), y)
    order = [list(clf.classes_).index(k) for k in CLASSES]
    idf = vec.idf_
    vocabulary = {term: (float(idf[j]), (float(clf.coef_[order[0], j]),
                                         float(clf.coef_[order[1], j]),
                                         float(clf.coef_[order[2], j])))
                  for term, j in vec.vocabulary_.items()}
    intercept = (float(clf.intercept_[order[0]]), float(clf.intercept_[order[1]]),
                 float(clf.intercept_[order[2]]))
    meta = {"examples": len(texts), "C": best_c, "min_df": min_df,
            "cv_macro_f1": {str(c): round(v, 4) for c, v in scores.items()}}
    return FallbackClassifier(vocabulary, intercept, meta)

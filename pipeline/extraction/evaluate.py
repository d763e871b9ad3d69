"""Measuring the extractor on Evidence Inference: does it read the direction of an
(intervention, comparator, outcome) prompt from a real RCT abstract?

Each prompt becomes a Query, the abstract an Abstract; the extractor's intervention ->
outcome rows are pooled (the polarity with the largest summed confidence wins) into
increased / decreased / no significant difference. A prompt with no row is scored as
'no significant difference' (the absence of a reported effect) and counted separately.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.extraction.extractor import Extractor
from pipeline.jsonl import JsonlError, parse_jsonl, read_jsonl_objects
from pipeline.model import MAX_NAME_CHARS, Abstract, Entity, Evidence, Query

INCREASED = "significantly increased"
DECREASED = "significantly decreased"
NO_DIFFERENCE = "no significant difference"
LABELS = (INCREASED, DECREASED, NO_DIFFERENCE)
POLARITY_LABEL = {1: INCREASED, -1: DECREASED, 0: NO_DIFFERENCE}


@dataclass(frozen=True, slots=True)
class Prompt:
    """One Evidence Inference prompt with its article's abstract and gold label."""

    prompt_id: str
    pmcid: str
    intervention: str
    comparator: str
    outcome: str
    label: str
    abstract: str

    @property
    def query(self) -> Query:
        comparator = _entity(self.comparator) if self.comparator.strip() else None
        return Query(_entity(self.intervention), _entity(self.outcome), comparator)


def _entity(name: str) -> Entity:
    clean = " ".join(name.split())[:MAX_NAME_CHARS] or "unnamed"
    return Entity.from_name(clean)


def read_prompts(path: Path | str, text_field: str = "abstract") -> list[Prompt]:
    """The prompts of an Evidence Inference file, each with the text in `text_field` (the
    dev file's "abstract", the training file's "evidence" passage); a line without a
    prompt's fields, or with a label outside LABELS, is one JsonlError naming the file and
    line."""
    return parse_jsonl(path, lambda row: _prompt(row, text_field), JsonlError)


def _prompt(row: Any, text_field: str) -> Prompt:
    if not isinstance(row, dict):
        raise ValueError("each line must be a JSON object")
    missing = [name for name in ("prompt_id", "intervention", "outcome", "label")
               if not isinstance(row.get(name), str | int) or row.get(name) == ""]
    if missing:
        raise ValueError(f"missing field(s) {', '.join(missing)}")
    if row["label"] not in LABELS:
        raise ValueError(f"label {row['label']!r} is not one of {', '.join(LABELS)}")
    return Prompt(str(row["prompt_id"]), str(row.get("pmcid") or ""), str(row["intervention"]),
                  str(row.get("comparator") or ""), str(row["outcome"]), row["label"],
                  str(row.get(text_field) or ""))


PASSAGE_HALVES = ("A", "B")


def passage_half(pmcid: str) -> str:
    """'A' or 'B', fixed by the article (MD5 of its PMCID): rules read on one half's
    passages are checked on the other's."""
    return PASSAGE_HALVES[int(hashlib.md5(pmcid.encode()).hexdigest(), 16) % 2]


def unread_passages(train_path: Path | str, dev_path: Path | str, half: str) -> list[Prompt]:
    """The training file's evidence passages from the dev file's articles that are not
    themselves dev evidence sentences, in one half of those articles. Nothing may be
    trained on them (the data note), and until session 17 nobody had read them: an unread
    check of the reading rules beside the dev prompts (docs/extraction.md)."""
    articles: set[str] = set()
    evidence: set[str] = set()
    for _, row in read_jsonl_objects(dev_path):
        articles.add(str(row.get("pmcid") or ""))
        evidence.update(str(e).strip() for e in row.get("evidence") or ())
    return [p for p in read_prompts(train_path, text_field="evidence")
            if p.pmcid in articles and p.abstract.strip() not in evidence
            and passage_half(p.pmcid) == half]


def pooled_label(rows: Iterable[Evidence], query: Query) -> str | None:
    """The label of the polarity with the largest summed confidence among the rows that
    read intervention -> outcome; None when there is none."""
    totals: dict[int, float] = {}
    for row in rows:
        if row.head.id == query.intervention.id and row.tail.id == query.outcome.id:
            totals[int(row.polarity)] = totals.get(int(row.polarity), 0.0) + row.confidence
    if not totals:
        return None
    return POLARITY_LABEL[max(totals, key=lambda p: (totals[p], p == 0))]


def predict(extractor: Extractor, prompt: Prompt) -> str | None:
    query = prompt.query
    rows = extractor.extract(Abstract(pmid=_pmid(prompt), title="", text=prompt.abstract),
                             query)
    return pooled_label(rows, query)


def _pmid(prompt: Prompt) -> str:
    digits = "".join(ch for ch in prompt.pmcid if ch.isalnum())
    return digits or "EI" + "".join(ch for ch in prompt.prompt_id if ch.isalnum())


@dataclass
class Report:
    """Scores over a prompt set; `missing` counts prompts with no extracted row."""

    gold: list[str] = field(default_factory=list)
    predicted: list[str] = field(default_factory=list)
    missing: int = 0

    def add(self, gold: str, predicted: str | None) -> None:
        self.gold.append(gold)
        self.predicted.append(predicted or NO_DIFFERENCE)
        self.missing += predicted is None

    def per_class(self) -> dict[str, tuple[float, float, float, int]]:
        """label -> (precision, recall, F1, support)."""
        out = {}
        for label in LABELS:
            tp = sum(g == p == label for g, p in zip(self.gold, self.predicted, strict=True))
            fp = sum(p == label != g for g, p in zip(self.gold, self.predicted, strict=True))
            fn = sum(g == label != p for g, p in zip(self.gold, self.predicted, strict=True))
            precision = tp / (tp + fp) if tp + fp else 0.0
            recall = tp / (tp + fn) if tp + fn else 0.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            out[label] = (precision, recall, f1, tp + fn)
        return out

    @property
    def macro_f1(self) -> float:
        return sum(f for _, _, f, _ in self.per_class().values()) / len(LABELS)

    @property
    def accuracy(self) -> float:
        hits = sum(g == p for g, p in zip(self.gold, self.predicted, strict=True))
        return hits / len(self.gold) if self.gold else 0.0

    @property
    def missing_share(self) -> float:
        return self.missing / len(self.gold) if self.gold else 0.0

    def confusion(self) -> dict[str, dict[str, int]]:
        """gold -> predicted -> count."""
        table = {g: dict.fromkeys(LABELS, 0) for g in LABELS}
        for g, p in zip(self.gold, self.predicted, strict=True):
            table[g][p] += 1
        return table


def evaluate(extractor: Extractor, prompts: Sequence[Prompt]) -> Report:
    report = Report()
    for prompt in prompts:
        report.add(prompt.label, predict(extractor, prompt))
    return report

"""Grounding audit (paper §"Biomedical Entity Grounding", SPEC §8): how many benchmark
entities reach a MeSH descriptor verbatim ('exact'), up to case ('folded'), after light
normalisation (case folding, qualifier and parenthetical stripping) and through the
linker; and how many questions have both endpoints grounded.

The tiers are cumulative: 'normalised' counts exact and folded hits too, and so on.
Precision of the linker tier is measured against a hand-labelled sample (a TSV of
entity, descriptor UI, label C/P/W for correct / partial (a broader or incomplete concept)
/ wrong), which is kept outside the repository because its entity strings come from the
benchmark.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.extraction.mesh import Grounding, MeshIndex

TIERS = ("exact", "folded", "normalised", "linker")


@dataclass(frozen=True, slots=True)
class EntityGrounding:
    """One entity of one question and the first tier that grounded it."""

    question: str
    role: str
    text: str
    grounding: Grounding | None

    @property
    def tier(self) -> str | None:
        return self.grounding.method if self.grounding else None


def ground_entities(mesh: MeshIndex, entities: Iterable[tuple[str, str, str]],
                    use_linker: bool = True) -> list[EntityGrounding]:
    """(question id, role, text) -> its grounding, each distinct text looked up once."""
    cache: dict[str, Grounding | None] = {}
    out = []
    for question, role, text in entities:
        if text not in cache:
            found = mesh.exact(text) or mesh.folded(text) or mesh.normalised(text)
            cache[text] = found or (mesh.link(text) if use_linker else None)
        out.append(EntityGrounding(question, role, text, cache[text]))
    return out


@dataclass(frozen=True)
class AuditSummary:
    """Cumulative grounding rates over entity mentions and over distinct texts."""

    mentions: int
    distinct: int
    mention_rates: dict[str, float]
    distinct_rates: dict[str, float]
    questions: int
    both_grounded: float


def summarise(rows: Sequence[EntityGrounding]) -> AuditSummary:
    def rates(items: Sequence[EntityGrounding]) -> dict[str, float]:
        out = {}
        for depth, tier in enumerate(TIERS):
            hits = sum(r.tier in TIERS[:depth + 1] for r in items)
            out[tier] = hits / len(items) if items else 0.0
        return out

    distinct = list({r.text: r for r in rows}.values())
    by_question: dict[str, list[EntityGrounding]] = {}
    for row in rows:
        by_question.setdefault(row.question, []).append(row)
    both = sum(all(r.tier for r in group) for group in by_question.values())
    return AuditSummary(len(rows), len(distinct), rates(rows), rates(distinct),
                        len(by_question), both / len(by_question) if by_question else 0.0)


@dataclass(frozen=True)
class Precision:
    labelled: int
    correct: int
    partial: int
    wrong: int
    unmatched: int  # labels whose entity/UI pair the linker no longer produces

    @property
    def strict(self) -> float:
        return self.correct / self.labelled if self.labelled else 0.0

    @property
    def lenient(self) -> float:
        return (self.correct + self.partial) / self.labelled if self.labelled else 0.0


def linker_precision(rows: Sequence[EntityGrounding], labels: Path) -> Precision:
    """Precision of the linker tier on a hand-labelled sample (TSV: entity, ui, C|P|W)."""
    produced = {(r.text, r.grounding.ui) for r in rows
                if r.grounding is not None and r.tier == "linker"}
    counts = {"C": 0, "P": 0, "W": 0}
    unmatched = 0
    with labels.open(encoding="utf-8", newline="") as handle:
        for record in csv.reader(handle, delimiter="\t"):
            if len(record) < 3 or record[0].startswith("#"):
                continue
            text, ui, mark = record[0], record[1], record[2].strip().upper()
            if (text, ui) not in produced or mark not in counts:
                unmatched += 1
                continue
            counts[mark] += 1
    return Precision(sum(counts.values()), counts["C"], counts["P"], counts["W"], unmatched)

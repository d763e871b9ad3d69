"""MedEvidence questions as a literature source: each question's cited studies are its corpus.

A question reads "Is the OUTCOME higher, lower, or the same when comparing INTERVENTION
to COMPARATOR?" and carries the Cochrane review's answer. The evaluation reads a
question's abstracts one per step in publication-date order; the answer is mapped onto
the project's labels (docs/sources.md explains the mapping) and never reaches the agent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.jsonl import parse_jsonl
from pipeline.model import Abstract, Entity, Label, Query
from pipeline.retrieval.corpus import CorpusError, LocalCorpus
from pipeline.retrieval.source import (
    EmptyResult,
    ListCursor,
    SearchConstraints,
    pmid_order,
)

QUESTION_KEY = "medevidence_question"
DEFAULT_BATCH_SIZE = 1

ANSWER_LABELS: dict[str, Label] = {
    "higher": Label.INCREASES,
    "lower": Label.DECREASES,
    "no difference": Label.NO_EFFECT,
    "uncertain effect": Label.NO_EVIDENCE,
    "insufficient data": Label.NO_EVIDENCE,
}

_QUESTION = re.compile(
    r"^\s*(?:is|are)\s+(?:the\s+)?(?P<outcome>.+?)\s+"
    r"(?:higher,\s*lower|lower,\s*higher),?\s+or\s+the\s+same\s+(?:when\s+)?"
    r"compar(?:ing|ed)\s+"
    r"(?P<arms>.+?)\s*\?\s*$", re.IGNORECASE | re.DOTALL)
_SEPARATORS = tuple(re.compile(rf"\s+{word}\s+", re.IGNORECASE)
                    for word in ("to", "with", "versus", r"vs\.?", "and"))


class QuestionFormatError(ValueError):
    """A question that does not follow the MedEvidence template."""


def parse_question(text: str) -> tuple[str, str | None, str]:
    """(intervention, comparator, outcome). A question missing the "to" between its arms
    is split after the first arm's head noun when the second arm repeats it ("comparing
    high protein concentration low protein concentration"); otherwise the whole phrase is
    the intervention."""
    match = _QUESTION.match(text)
    if match is None:
        raise QuestionFormatError(f"not a MedEvidence comparison question: {text[:120]!r}")
    outcome, arms = match["outcome"].strip(), match["arms"].strip()
    for separator in _SEPARATORS:  # "to" first: "and" often sits inside an arm's name
        parts = separator.split(arms, maxsplit=1)
        if len(parts) == 2:
            return parts[0].strip(), parts[1].strip(), outcome
    words = arms.split()
    head = words[-1].lower()
    for i, word in enumerate(words[:-2], 1):
        if word.lower() == head:
            return " ".join(words[:i]), " ".join(words[i:]), outcome
    return arms, None, outcome


@dataclass(frozen=True, slots=True)
class MedEvidenceQuestion:
    """One question, its gold answer (kept away from the agent) and its corpus."""

    id: str
    question: str
    intervention: str
    comparator: str | None
    outcome: str
    answer: str
    label: Label
    certainty: str
    review_pmid: str
    review_year: int | None
    abstracts: tuple[Abstract, ...]
    relevant_pmids: tuple[str, ...]
    fulltext_required: bool = False  # the dataset's flag: the abstracts may not suffice

    @property
    def understood(self) -> bool:
        """Whether the question's wording could be parsed into arms and an outcome."""
        return bool(self.intervention and self.outcome)

    @property
    def query(self) -> Query:
        comparator = (Entity.from_name(self.comparator, "comparator")
                      if self.comparator else None)
        return Query(intervention=Entity.from_name(self.intervention, "intervention"),
                     outcome=Entity.from_name(self.outcome, "outcome"),
                     comparator=comparator, constraints={QUESTION_KEY: self.id})


class MedEvidenceSource:
    """All questions of a MedEvidence file; a search reads one question's studies."""

    def __init__(self, questions: Iterable[MedEvidenceQuestion],
                 batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        self.questions = {q.id: q for q in questions}
        self.batch_size = batch_size

    @classmethod
    def from_jsonl(cls, path: Path | str,
                   batch_size: int = DEFAULT_BATCH_SIZE) -> MedEvidenceSource:
        return cls(read_medevidence(path), batch_size)

    def search(self, query: Query, constraints: SearchConstraints | None = None) -> ListCursor:
        """The question named in query.constraints (else the one whose intervention,
        comparator and outcome match). Its own query reads its studies by date; any
        other query (an expansion) is ranked by TF-IDF within the same studies."""
        constraints = constraints or SearchConstraints()
        question = self._find(query)
        batch_size = constraints.batch_size or self.batch_size
        own = question.query
        if (query.intervention.id, query.outcome.id) == (own.intervention.id, own.outcome.id):
            ranked = [a for a in question.abstracts if constraints.admits_year(a.year)
                      and constraints.admits_types(a.publication_types)]
            ranked = ranked[:constraints.max_results]
            if not ranked:
                raise EmptyResult(f"question {question.id}: no study within the constraints")
            return ListCursor(ranked, batch_size)
        corpus = LocalCorpus(question.abstracts, batch_size)
        return corpus.search(query, constraints)

    def _find(self, query: Query) -> MedEvidenceQuestion:
        wanted = query.constraints.get(QUESTION_KEY)
        if wanted is not None:
            if wanted not in self.questions:
                raise EmptyResult(f"no MedEvidence question {wanted!r}")
            return self.questions[wanted]
        key = _arms_key(query)
        matches = [q for q in self.questions.values()
                   if q.understood and _arms_key(q.query) == key]
        if not matches:
            raise EmptyResult(f"no MedEvidence question about {query.intervention.name!r} "
                              f"and {query.outcome.name!r}")
        return matches[0]


def _arms_key(query: Query) -> tuple[str, str, str]:
    comparator = query.comparator.id if query.comparator else ""
    return (query.intervention.id, comparator, query.outcome.id)


def read_medevidence(path: Path | str) -> list[MedEvidenceQuestion]:
    """Every question of a MedEvidence JSONL file; CorpusError names the file and line
    (also of a question id met before: runs and records are keyed by it)."""
    seen: set[str] = set()

    def unique(row: object) -> MedEvidenceQuestion:
        question = _question(row)
        if question.id in seen:
            raise ValueError(f"question id {question.id!r} appears twice")
        seen.add(question.id)
        return question

    return parse_jsonl(path, unique, CorpusError)


def endpoint_mentions(questions: Iterable[MedEvidenceQuestion]) -> list[tuple[str, str, str]]:
    """(question id, role, text) for the intervention and the outcome of every question
    whose wording was understood: the mentions the grounding audit looks up."""
    rows = []
    for question in filter(lambda q: q.understood, questions):
        rows.append((question.id, "intervention", question.intervention))
        rows.append((question.id, "outcome", question.outcome))
    return rows


def _field(row: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in row:
        raise ValueError(f"missing field {name!r}")
    if not isinstance(row[name], kind) or isinstance(row[name], bool):
        raise ValueError(f"field {name!r} has the wrong type ({type(row[name]).__name__})")
    return row[name]


def _question(row: object) -> MedEvidenceQuestion:
    if not isinstance(row, dict):
        raise ValueError("each line must be a JSON object")
    question = _field(row, "question", str)
    try:
        intervention, comparator, outcome = parse_question(question)
    except QuestionFormatError:  # kept, unanswered: one odd wording must not stop a run
        intervention, comparator, outcome = "", None, ""
    answer = _field(row, "answer", str).strip().lower()
    if answer not in ANSWER_LABELS:
        raise ValueError(f"unknown answer {answer!r}")
    sources = _field(row, "sources", dict)
    if not all(isinstance(s, dict) for s in sources.values()):
        raise ValueError("field 'sources' must map each PMID to an object")
    dated = sorted(((str(s.get("date") or ""), _abstract(pmid, s))
                    for pmid, s in sources.items()),
                   key=lambda item: (item[0], pmid_order(item[1].pmid)))
    return MedEvidenceQuestion(
        id=str(_field(row, "question_id", (int, str))),
        question=question.strip(),
        intervention=intervention,
        comparator=comparator,
        outcome=outcome,
        answer=answer,
        label=ANSWER_LABELS[answer],
        certainty=str(row.get("evidence_certainty", "")),
        review_pmid=str(row.get("original_review", "")),
        review_year=row.get("review_year"),
        abstracts=tuple(abstract for _, abstract in dated),
        relevant_pmids=tuple(str(p) for p in row.get("relevant_sources", ())),
        fulltext_required=str(row.get("fulltext_required", "")).strip().lower() == "yes",
    )


def _abstract(pmid: str, source: dict[str, Any]) -> Abstract:
    date = str(source.get("date") or "")
    year = int(date[:4]) if date[:4].isdigit() else None
    return Abstract(pmid=str(source.get("article_id") or pmid),
                    title=str(source.get("title") or ""),
                    text=str(source.get("content") or ""), year=year)

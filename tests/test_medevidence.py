"""MedEvidence: question parsing, answer mapping, one abstract per step in date order."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pipeline.evaluation.medevidence import DEFINITE
from pipeline.model import Abstract, Entity, Label, Query
from pipeline.resources import MEDEVIDENCE_DEV
from pipeline.retrieval.medevidence import (
    QUESTION_KEY,
    MedEvidenceQuestion,
    MedEvidenceSource,
    QuestionFormatError,
    parse_question,
    read_medevidence,
)
from pipeline.retrieval.source import EmptyResult, SearchConstraints

DEV = MEDEVIDENCE_DEV
needs_data = pytest.mark.skipif(not DEV.is_file(), reason="../shared/data is absent")


@pytest.mark.parametrize(("question", "parsed"), [
    ("Is the long-term rate of overall lymphocyst formation higher, lower, or the same when "
     "comparing retroperitoneal drainage to no drainage?",
     ("retroperitoneal drainage", "no drainage", "long-term rate of overall lymphocyst formation")),
    ("Is the effect on neuropathy symptoms lower, higher, or the same when comparing "
     "Alpha-lipoic acid with placebo?", ("Alpha-lipoic acid", "placebo",
                                         "effect on neuropathy symptoms")),
    ("Is birth weight higher, lower, or the same when comparing caffeinated instant coffee "
     "and decaffeinated instant coffee? ", ("caffeinated instant coffee",
                                            "decaffeinated instant coffee", "birth weight")),
    ("Is the risk of gingivitis higher, lower, or the same when comparing scaling and "
     "polishing at a 6 month interval to no scaling and polishing?",
     ("scaling and polishing at a 6 month interval", "no scaling and polishing",
      "risk of gingivitis")),
    ("Is the risk of bleeding higher, lower, or the same comparing warfarin to aspirin?",
     ("warfarin", "aspirin", "risk of bleeding")),
    ("Is mortality higher, lower or the same when compared cooling with no cooling?",
     ("cooling", "no cooling", "mortality")),
    ("Is length gain higher, lower, or the same when comparing high protein concentration "
     "low protein concentration?",
     ("high protein concentration", "low protein concentration", "length gain")),
    # no separator and no repeated head noun: the whole phrase is the intervention
    ("Is pain higher, lower, or the same when comparing early surgery delayed?",
     ("early surgery delayed", None, "pain")),
])
def test_parse_question(question: str, parsed: tuple[str, str | None, str]) -> None:
    assert parse_question(question) == parsed


def test_other_questions_are_refused() -> None:
    with pytest.raises(QuestionFormatError):
        parse_question("Does aspirin prevent stroke?")


def make_question(pmids_dates: list[tuple[str, int]]) -> MedEvidenceQuestion:
    abstracts = tuple(Abstract(p, f"Trial {p} of zinc for colds", "Zinc shortened colds.", y)
                      for p, y in pmids_dates)
    return MedEvidenceQuestion("7", "Is cold duration ...?", "zinc", "placebo",
                               "cold duration", "lower", Label.DECREASES, "moderate", "1",
                               2020, abstracts, ())


def test_steps_follow_the_order_given_and_step_size_is_configurable() -> None:
    question = make_question([("5", 2001), ("12", 2004), ("9", 2010)])
    source = MedEvidenceSource([question])
    cursor = source.search(question.query)
    assert [[a.pmid for a in cursor.next_batch()] for _ in range(4)] == [
        ["5"], ["12"], ["9"], []]
    batched = source.search(question.query, SearchConstraints(batch_size=2))
    assert [a.pmid for a in batched.next_batch()] == ["5", "12"]


def test_a_question_is_found_by_its_arms_or_its_id() -> None:
    question = make_question([("5", 2001)])
    source = MedEvidenceSource([question])
    by_arms = Query(Entity.from_name("Zinc"), Entity.from_name("cold duration"),
                    Entity.from_name("placebo"))
    assert source.search(by_arms).total == 1
    expansion = Query(Entity.from_name("zinc"), Entity.from_name("colds"),
                      constraints={QUESTION_KEY: "7"})
    assert [a.pmid for a in source.search(expansion).next_batch()] == ["5"]
    with pytest.raises(EmptyResult):
        source.search(Query(Entity.from_name("aspirin"), Entity.from_name("stroke")))
    with pytest.raises(EmptyResult):
        source.search(Query(Entity.from_name("zinc"), Entity.from_name("x"),
                            constraints={QUESTION_KEY: "999"}))


@needs_data
def test_dev_questions_load_with_mapped_labels() -> None:
    questions = read_medevidence(DEV)
    assert len(questions) == 117
    assert Counter(q.answer for q in questions) == {
        "no difference": 33, "higher": 24, "uncertain effect": 22, "lower": 21,
        "insufficient data": 17}
    assert Counter(q.label for q in questions) == {
        Label.NO_EFFECT: 33, Label.INCREASES: 24, Label.DECREASES: 21, Label.NO_EVIDENCE: 39}
    assert sum(q.answer in DEFINITE for q in questions) == 78  # the 3-way questions
    assert all(q.intervention and q.outcome for q in questions)
    assert sum(q.comparator is None for q in questions) == 0  # 17, 18 split on "concentration"
    for q in questions:
        years = [a.year for a in q.abstracts]
        assert None not in years and years == sorted(years)  # type: ignore[type-var]
        assert set(q.relevant_pmids) <= {a.pmid for a in q.abstracts}


@needs_data
def test_dev_source_reads_one_abstract_per_step() -> None:
    source = MedEvidenceSource.from_jsonl(DEV)
    question = max(source.questions.values(), key=lambda q: len(q.abstracts))
    cursor = source.search(question.query)
    steps = []
    while batch := cursor.next_batch():
        steps.append(batch)
    assert all(len(step) == 1 for step in steps)
    assert [step[0].pmid for step in steps] == [a.pmid for a in question.abstracts]
    assert all(step[0].text and step[0].title for step in steps)


@needs_data
def test_a_question_not_understood_is_left_unanswered_with_a_warning(tmp_path: Path) -> None:
    """One odd wording must not abort recording the whole benchmark file."""
    from typer.testing import CliRunner

    from pipeline.cli import app

    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").split("\n")[:2]]
    rows[1]["question"] = "Does aspirin prevent stroke?"
    data = tmp_path / "me.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "records.jsonl"
    result = CliRunner().invoke(app, ["bench", "record", str(data), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(f"warning: {data}: question {rows[1]['question_id']} is "
                                    "not worded as a comparison")
    recorded = {json.loads(line)["query_id"] for line in out.read_text().split("\n") if line}
    assert recorded == {str(rows[0]["question_id"])}

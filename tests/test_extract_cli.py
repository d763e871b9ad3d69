"""The extraction commands: `dacg audit grounding`, `dacg eval extractor` (Evidence
Inference), and `dacg extract train` / `abstracts` (the confidence model, ingestible evidence
rows)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.extraction.calibration import CLASSES, DEFAULT_MODEL, ConfidenceModel
from pipeline.extraction.cli import EI_DEV, EI_TRAIN
from pipeline.extraction.evaluate import (
    LABELS,
    PASSAGE_HALVES,
    Report,
    evaluate,
    passage_half,
    read_prompts,
    unread_passages,
)
from pipeline.extraction.extractor import RuleExtractor, default_extractor
from pipeline.graph.evidence_file import parse_evidence_row
from pipeline.model import Abstract, Entity, Query
from pipeline.resources import shipped

FIXTURES = Path(__file__).parent / "fixtures" / "extraction"
needs_data = pytest.mark.skipif(not EI_DEV.is_file(), reason="../shared/data is absent")
runner = CliRunner()


# The fixture's four mentions and the first tier that grounds each, read off by hand from
# mesh_small.tsv: "aspirin" differs from the term "Aspirin" only in case; "risk of heart
# attack" and "mortality rate at 30 days" match "Heart Attack" and "Mortality Rate" once the
# light normalisation drops "risk of" and "at 30 days"; no term is near "restrictive fluid
# treatment" but the linker's ('treatment' ~ 'therapy': Fluid Therapy, D005440).
FIRST_TIER = {"aspirin": "folded", "risk of heart attack": "normalised",
              "mortality rate at 30 days": "normalised", "restrictive fluid treatment": "linker"}


def test_grounding_audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.extraction.audit import TIERS

    monkeypatch.setenv("DACG_CACHE", str(tmp_path))
    result = runner.invoke(app, [
        "audit", "grounding", "--medevidence", str(FIXTURES / "medevidence_sample.jsonl"),
        "--mesh", str(FIXTURES / "mesh_small.tsv"),
        "--labels", str(FIXTURES / "grounding_labels_sample.tsv"), "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert (body["mentions"], body["distinct"], body["questions"]) == (4, 4, 2)
    # cumulative: the share of mentions grounded at this tier or an earlier one
    assert body["mention_rates"] == {
        tier: sum(TIERS.index(first) <= TIERS.index(tier) for first in FIRST_TIER.values())
        / len(FIRST_TIER) for tier in TIERS}
    assert body["both_endpoints_grounded"] == 1.0
    # the labels file holds one linker match (right: C) and two rows the audit does not
    # reproduce (a normalised match, an entity not in the audit)
    assert body["linker_precision"] == {"labelled": 1, "strict": 1.0, "lenient": 1.0,
                                        "unmatched_labels": 2}


def test_grounding_audit_table_without_linker(tmp_path: Path) -> None:
    result = runner.invoke(app, [
        "audit", "grounding", "--medevidence", str(FIXTURES / "medevidence_sample.jsonl"),
        "--mesh", str(FIXTURES / "mesh_small.tsv"), "--no-linker"])
    assert result.exit_code == 0, result.output
    assert "normalised" in result.stdout and "linker" not in result.stdout


def test_missing_inputs_are_one_line_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["eval", "extractor", "--data", str(tmp_path / "none.jsonl")])
    assert result.exit_code == 2 and "not found" in result.stderr
    result = runner.invoke(app, ["audit", "grounding", "--medevidence",
                                 str(FIXTURES / "medevidence_sample.jsonl"),
                                 "--mesh", str(tmp_path / "missing.tsv")])
    assert result.exit_code == 1 and "does not exist" in result.stderr
    assert "Traceback" not in result.output


# What each fixture prompt's result sentence says, read by hand (P4: the comparator's score
# is the lower one; P5: a change within both groups is no difference between them).
HAND_READING = {"P1": "significantly decreased", "P2": "significantly increased",
                "P3": "no significant difference", "P4": "significantly increased",
                "P5": "no significant difference", "P6": "significantly decreased"}


def evaluate_json(path: Path) -> dict:
    result = runner.invoke(app, ["eval", "extractor", "--data", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_evaluate_reads_each_prompt_as_a_reader_would() -> None:
    body = evaluate_json(FIXTURES / "ei_sample.jsonl")
    assert body["prompts"] == 6 and body["nothing_extracted"] == 0.0
    hand = {gold: {label: 0 for label in LABELS} for gold in LABELS}
    for row in read_prompts(FIXTURES / "ei_sample.jsonl"):
        hand[row.label][HAND_READING[row.prompt_id]] += 1
    assert body["confusion"] == hand
    table = runner.invoke(app, ["eval", "extractor", "--data", str(FIXTURES / "ei_sample.jsonl")])
    assert "macro-F1" in table.stdout and "confusion" in table.stdout


def test_evaluate_macro_f1_is_scikit_learns(tmp_path: Path) -> None:
    """The fixture with two gold labels changed, so the extractor is wrong twice: its
    macro-F1 is scikit-learn's on the hand readings, 59/90 by hand: F1 1/2 (increased),
    4/5 (decreased), 2/3 (no difference)."""
    from sklearn.metrics import f1_score

    gold = {"P3": "significantly increased", "P4": "significantly decreased"}
    rows = [json.loads(line) for line in
            (FIXTURES / "ei_sample.jsonl").read_text(encoding="utf-8").splitlines()]
    changed = tmp_path / "ei_changed.jsonl"
    changed.write_text("".join(json.dumps({**r, "label": gold.get(r["prompt_id"], r["label"])})
                               + "\n" for r in rows), encoding="utf-8")
    body = evaluate_json(changed)
    truth = [gold.get(r["prompt_id"], r["label"]) for r in rows]
    reading = [HAND_READING[r["prompt_id"]] for r in rows]
    reference = f1_score(truth, reading, labels=list(LABELS), average="macro")
    assert reference == pytest.approx(59 / 90)
    assert body["macro_f1"] == pytest.approx(reference)


def test_report_arithmetic() -> None:
    report = Report()
    for gold, predicted in [("significantly increased", "significantly increased"),
                            ("significantly increased", None),
                            ("significantly decreased", "significantly increased"),
                            ("no significant difference", "no significant difference")]:
        report.add(gold, predicted)
    per_class = report.per_class()
    assert per_class["significantly increased"] == (0.5, 0.5, 0.5, 2)
    assert per_class["significantly decreased"] == (0.0, 0.0, 0.0, 1)
    assert per_class["no significant difference"][:3] == (0.5, 1.0, pytest.approx(2 / 3))
    assert report.missing_share == 0.25 and report.accuracy == 0.5


def test_abstracts_command_writes_ingestible_rows() -> None:
    result = runner.invoke(app, [
        "extract", "abstracts", str(FIXTURES / "abstracts_sample.jsonl"), "--intervention", "zinc",
        "--outcome", "common cold duration", "--comparator", "placebo"])
    assert result.exit_code == 0, result.output
    rows = [parse_evidence_row(json.loads(line)) for line in result.stdout.split("\n") if line]
    assert {(r.head.name, r.tail.name, int(r.polarity)) for r in rows} == {
        ("zinc", "common cold duration", -1), ("zinc", "interleukin-6 levels", -1)}
    assert all(r.pmid == "2001" and r.year == 2018 for r in rows)


@needs_data
def test_evidence_inference_dev_sample() -> None:
    """The first 120 dev prompts (the full dev set is measured by `evaluate`)."""
    report = evaluate(default_extractor(), read_prompts(EI_DEV)[:120])
    assert report.macro_f1 > 0.65
    assert report.missing_share < 0.25


@needs_data
def test_training_reproduces_the_shipped_weights(tmp_path: Path) -> None:
    out = tmp_path / "model.json"
    result = runner.invoke(app, ["extract", "train", "--data", str(EI_TRAIN),
                                 "--exclude", str(EI_DEV), "--out", str(out),
                                 "--fallback-out", str(tmp_path / "fallback.json")])
    assert result.exit_code == 0, result.output
    assert "dev-article rows excluded" in result.stdout
    retrained = ConfidenceModel.load(out)
    assert retrained.weights == ConfidenceModel.load(shipped(DEFAULT_MODEL)).weights
    # Independently of the shipped file: on sentences whose finding is plain, the retrained
    # model puts most probability on the polarity a reader gives them.
    reader = RuleExtractor(calibration=None)
    query = Query(Entity.from_name("zinc", "intervention"),
                  Entity.from_name("cold duration", "outcome"),
                  Entity.from_name("placebo", "comparator"))
    for sentence, polarity in [
            ("Zinc significantly reduced cold duration compared with placebo (P < 0.001).", -1),
            ("Cold duration was significantly longer with zinc than with placebo "
             "(P = 0.002).", 1),
            ("Cold duration did not differ between the zinc and placebo groups (P = 0.62).", 0)]:
        candidates = [c for c in reader.candidates(Abstract("1", "", sentence), query)
                      if c.reading is not None]
        assert candidates, sentence
        probabilities = retrained.probabilities(candidates[0])
        assert CLASSES[max(range(3), key=probabilities.__getitem__)] == polarity, sentence


def test_unread_passages_are_the_dev_articles_other_passages(tmp_path: Path) -> None:
    """Only passages of dev articles, none that is a dev evidence sentence, each article in
    one half; the halves together are all of them."""
    def prompt(pid: str, pmcid: str, text: str) -> dict[str, str]:
        return {"prompt_id": pid, "pmcid": pmcid, "intervention": "A", "comparator": "B",
                "outcome": "pain", "label": LABELS[2], "evidence": text}

    dev = tmp_path / "dev.jsonl"
    dev.write_text("".join(json.dumps(p | {"evidence": [p["evidence"]], "abstract": "x"}) + "\n"
                           for p in (prompt("1", "PMC1", "Pain fell with A."),
                                     prompt("2", "PMC2", "No difference in pain."))))
    train = tmp_path / "train.jsonl"
    rows = [prompt("1", "PMC1", "Pain fell with A."),      # dev evidence, verbatim: out
            prompt("1", "PMC1", "Pain fell with A (P = 0.01) at week 4."),   # in
            prompt("2", "PMC2", " No difference in pain. "),   # dev evidence with spaces: out
            prompt("3", "PMC2", "Pain was similar in both arms."),            # in
            prompt("4", "PMC9", "Pain fell with A.")]      # not a dev article: out
    train.write_text("".join(json.dumps(r) + "\n" for r in rows))
    halves = {h: unread_passages(train, dev, h) for h in PASSAGE_HALVES}
    texts = sorted(p.abstract for h in halves.values() for p in h)
    assert texts == ["Pain fell with A (P = 0.01) at week 4.", "Pain was similar in both arms."]
    for half, prompts in halves.items():
        assert all(passage_half(p.pmcid) == half for p in prompts)
    assert passage_half("PMC1") == ("A", "B")[int(hashlib.md5(b"PMC1").hexdigest(), 16) % 2]


def test_evaluate_command_refuses_an_unknown_passage_half() -> None:
    result = CliRunner().invoke(app, ["eval", "extractor", "--passages", "C"])
    assert result.exit_code == 2
    assert "unknown passage half 'C' (use A or B)" in result.output

"""The extraction commands: grounding audit, Evidence Inference evaluation, training the
confidence model, and extracting ingestible evidence rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.extraction.calibration import DEFAULT_MODEL, ConfidenceModel
from pipeline.extraction.cli import EI_DEV, EI_TRAIN, app
from pipeline.extraction.evaluate import Report, evaluate, read_prompts
from pipeline.extraction.extractor import default_extractor
from pipeline.graph.evidence_file import parse_evidence_row
from pipeline.resources import shipped

FIXTURES = Path(__file__).parent / "fixtures" / "extraction"
needs_data = pytest.mark.skipif(not EI_DEV.is_file(), reason="../shared/data is absent")
runner = CliRunner()


def test_grounding_audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DACG_CACHE", str(tmp_path))
    result = runner.invoke(app, [
        "grounding", "--medevidence", str(FIXTURES / "medevidence_sample.jsonl"),
        "--mesh", str(FIXTURES / "mesh_small.tsv"),
        "--labels", str(FIXTURES / "grounding_labels_sample.tsv"), "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert (body["mentions"], body["distinct"], body["questions"]) == (4, 4, 2)
    # aspirin: up to case; risk of heart attack, mortality rate at 30 days: normalised;
    # restrictive fluid treatment: linker ('treatment' ~ 'therapy')
    assert body["mention_rates"] == {"exact": 0.0, "folded": 0.25, "normalised": 0.75,
                                     "linker": 1.0}
    assert body["both_endpoints_grounded"] == 1.0
    assert body["linker_precision"] == {"labelled": 1, "strict": 1.0, "lenient": 1.0,
                                        "unmatched_labels": 2}


def test_grounding_audit_table_without_linker(tmp_path: Path) -> None:
    result = runner.invoke(app, [
        "grounding", "--medevidence", str(FIXTURES / "medevidence_sample.jsonl"),
        "--mesh", str(FIXTURES / "mesh_small.tsv"), "--no-linker"])
    assert result.exit_code == 0, result.output
    assert "normalised" in result.stdout and "linker" not in result.stdout


def test_missing_inputs_are_one_line_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["evaluate", "--data", str(tmp_path / "none.jsonl")])
    assert result.exit_code == 2 and "not found" in result.stderr
    result = runner.invoke(app, ["grounding", "--medevidence",
                                 str(FIXTURES / "medevidence_sample.jsonl"),
                                 "--mesh", str(tmp_path / "missing.tsv")])
    assert result.exit_code == 1 and "does not exist" in result.stderr
    assert "Traceback" not in result.output


def test_evaluate_prints_macro_f1_per_class_and_confusion() -> None:
    result = runner.invoke(app, ["evaluate", "--data", str(FIXTURES / "ei_sample.jsonl"),
                                 "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["prompts"] == 6 and body["macro_f1"] == 1.0
    assert body["nothing_extracted"] == 0.0  # P5's within-group change reads as a null
    assert body["confusion"]["significantly increased"]["significantly increased"] == 2
    table = runner.invoke(app, ["evaluate", "--data", str(FIXTURES / "ei_sample.jsonl")])
    assert "macro-F1 1.000" in table.stdout and "confusion" in table.stdout


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
        "abstracts", str(FIXTURES / "abstracts_sample.jsonl"), "--intervention", "zinc",
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
    result = runner.invoke(app, ["train", "--data", str(EI_TRAIN), "--exclude", str(EI_DEV),
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "dev-article rows excluded" in result.stdout
    assert ConfidenceModel.load(out).weights == ConfidenceModel.load(shipped(DEFAULT_MODEL)).weights

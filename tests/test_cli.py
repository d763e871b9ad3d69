"""`dacg ingest` / `dacg query` on the embedded store: answers, and one-line errors that
leave the graph as it was."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.graph.embedded_store import EmbeddedStore

runner = CliRunner()

GOOD = [
    {"head": "zinc", "tail": "common cold duration", "polarity": -1, "confidence": 0.8,
     "pmid": "101", "sentence": "Zinc shortened colds."},
    {"head": "zinc", "tail": "immune response", "polarity": 1, "confidence": 0.7,
     "pmid": "102"},
    {"head": "immune response", "tail": "common cold duration", "polarity": -1,
     "confidence": 0.6, "pmid": "103", "year": 2019, "step": 2},
]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def run(*args: str, db: Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--db", str(db)], env={"NEO4J_URI": ""})
    return result.exit_code, result.stdout, result.stderr


def test_ingest_then_query_answers_with_paths_and_pmids(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    code, out, _ = run("ingest", str(write_jsonl(tmp_path / "e.jsonl", GOOD)), db=db)
    assert code == 0 and "ingested 3 rows" in out
    code, out, _ = run("query", "Zinc", "common cold duration", "--direction", "decrease",
                       "--source", "kg", "--json", db=db)
    assert code == 0
    answer = json.loads(out)
    assert answer["label"] == "Beneficial"
    assert [p["nodes"] for p in answer["paths"]] == [
        ["zinc", "common cold duration"], ["zinc", "immune response", "common cold duration"]]
    assert sorted(pmid for e in answer["edges"] for pmid in e["pmids"]) == ["101", "102", "103"]


def test_query_judges_the_body_of_evidence_behind_its_answer(tmp_path: Path) -> None:
    from pipeline.answer import answer_from_graph, direct_body
    from pipeline.cli import firmness_of
    from pipeline.evaluation.medevidence import load_firmness
    from pipeline.inference.evidence_body import Firmness, FirmnessRule
    from pipeline.model import Entity, Polarity, Query

    # two studies shorten colds (0.8, 0.4), one finds no effect (0.6); the mediator's
    # edges are not direct findings
    rows = [*GOOD, {"head": "zinc", "tail": "common cold duration", "polarity": -1,
                    "confidence": 0.4, "pmid": "104"},
            {"head": "zinc", "tail": "common cold duration", "polarity": 0,
             "confidence": 0.6, "pmid": "105"}]
    db = tmp_path / "g.sqlite"
    run("ingest", str(write_jsonl(tmp_path / "e.jsonl", rows)), db=db)
    store = EmbeddedStore(db)
    question = Query(Entity.from_name("zinc"), Entity.from_name("common cold duration"),
                     direction=Polarity.DECREASES)
    answer = answer_from_graph(store, "kg", question)
    body = direct_body(store, "kg", answer)
    assert answer.posterior.label.value == "Beneficial"
    assert body.studies == 3 and body.participants is None
    assert body.share(-1) == pytest.approx(1.2 / 1.8)  # 0.667 for the answer
    assert firmness_of(answer, body, FirmnessRule(min_share=0.6)) == "definite"
    assert firmness_of(answer, body, FirmnessRule(min_share=0.7)) == "uncertain effect"
    assert firmness_of(answer, body, FirmnessRule(min_studies=4)) == "insufficient data"
    # the command prints the judgement of the shipped rule
    shipped = str(load_firmness().judge(body, -1))
    assert shipped in {f.value for f in Firmness}
    code, out, _ = run("query", "zinc", "common cold duration", "--direction", "decrease",
                       "--source", "kg", "--json", db=db)
    assert code == 0
    assert (json.loads(out)["firmness"], json.loads(out)["studies"]) == (shipped, 3)
    code, out, _ = run("query", "zinc", "common cold duration", "--direction", "decrease",
                       "--source", "kg", db=db)
    expected = f"body of evidence: {shipped} (3 studies with a direct finding, 67% of their"
    assert expected in " ".join(out.split())


def test_query_without_paths_is_noevidence(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    run("ingest", str(write_jsonl(tmp_path / "e.jsonl", GOOD)), db=db)
    code, out, _ = run("query", "vitamin c", "common cold duration", "--source", "kg", db=db)
    assert code == 0 and "NoEvidence" in out and "not the same as NoEffect" in out


def test_bad_row_rejects_the_whole_file_and_leaves_the_graph(tmp_path: Path) -> None:
    """One bad row (any rule: tests/test_graph_store.py has each) after good ones."""
    db = tmp_path / "g.sqlite"
    run("ingest", str(write_jsonl(tmp_path / "good.jsonl", GOOD[:1])), db=db)
    path = write_jsonl(tmp_path / "bad.jsonl", [GOOD[1], GOOD[2], {**GOOD[1], "head": ""}])
    code, out, err = run("ingest", str(path), db=db)
    assert code == 1
    assert err.startswith(f"error: {path}:3: ") and err.count("\n") == 1
    assert "Traceback" not in out + err
    store = EmbeddedStore(db)
    assert (store.stats("kg").edges, store.stats("kg").evidence) == (1, 1)


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe not utf-8\n", "not UTF-8"),
    (b"{not json}\n", "not valid JSON"),
    (b"[1, 2]\n", "JSON object"),
    (b"\n\n", "no evidence rows"),
    (b'{"head": "a", "tail": "b", "polarity": 1, "confidence": 0.5, "pmid": "1", "x": 1}\n',
     "unknown field"),
])
def test_malformed_files_give_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    code, _, err = run("ingest", str(path), db=tmp_path / "g.sqlite")
    assert code == 1 and message in err and err.count("\n") == 1


def test_missing_file_and_empty_query(tmp_path: Path) -> None:
    code, _, err = run("ingest", str(tmp_path / "nope.jsonl"), db=tmp_path / "g.sqlite")
    assert code == 1 and "No such file" in err
    code, _, err = run("query", "  ", "cold", db=tmp_path / "g.sqlite")
    assert code == 2 and "intervention is empty" in err
    # an empty comparator is bad input too, not a question without one
    code, _, err = run("query", "zinc", "cold", "--comparator", "", db=tmp_path / "g.sqlite")
    assert code == 2 and "comparator is empty" in err and err.count("\n") == 1


def test_real_process_prints_no_traceback(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "bad.jsonl", [{**GOOD[0], "confidence": 2}])
    result = subprocess.run([sys.executable, "-m", "pipeline", "ingest", str(path), "--db",
                             str(tmp_path / "g.sqlite")], capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin"}, check=False)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"error: {path}:1: confidence must be in [0, 1), got 2"]


@pytest.mark.parametrize("args, message", [
    (["query", "zinc", "cold", "--stor", "neo4j"], "No such option: --stor"),
    (["query", "zinc", "cold", "--store", "mongo"], "'mongo' is not one of"),
    (["query", "zinc"], "Missing argument 'outcome'"),
])
def test_usage_mistakes_are_one_line_exit_2(args: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


def test_agent_query_records_steps_and_never_writes_secrets(tmp_path: Path) -> None:
    secret = "Sentinel-Secret-4711"
    record = tmp_path / "run.jsonl"
    result = runner.invoke(app, [
        "query", "vitamin D3 supplementation", "albuminuria", "--direction", "decrease",
        "--source", "simulated", "--record", str(record), "--json",
        "--db", str(tmp_path / "g.sqlite")],
        env={"NEO4J_URI": "", "NEO4J_PASSWORD": secret, "NCBI_API_KEY": secret,
             "NCBI_EMAIL": secret})
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    steps = [json.loads(line) for line in record.read_text().splitlines()]
    assert answer["stop"]["step"] == len(steps) and steps[-1]["label"] == answer["label"]
    assert answer["paths"][0]["nodes"][0] == "cholecalciferol"  # the synonym resolved
    assert secret not in result.stdout + result.stderr + record.read_text()


def test_recorded_rules_use_the_thresholds_in_force(tmp_path: Path) -> None:
    """StepRecord.rules says which DACG rules fire under the thresholds `dacg query` uses:
    the frozen ones by default, the --thresholds file when given."""
    from pipeline.resources import shipped

    frozen = json.loads(shipped("data/eval/thresholds.json").read_text())
    loose = tmp_path / "loose.json"
    loose.write_text(json.dumps({"thresholds": {**frozen["thresholds"], "delta": 1e9}}))
    flags = {}
    for name, extra in (("frozen", []), ("loose", ["--thresholds", str(loose)])):
        record = tmp_path / f"{name}.jsonl"
        result = runner.invoke(app, ["query", "vitamin D3 supplementation", "albuminuria",
                                     "--direction", "decrease", "--source", "simulated",
                                     "--policy", "k=3", "--record", str(record), *extra,
                                     "--db", str(tmp_path / "g.sqlite")], env={"NEO4J_URI": ""})
        assert result.exit_code == 0, result.stderr
        steps = [json.loads(line) for line in record.read_text().split("\n") if line]
        assert steps[0]["informed"]
        flags[name] = steps[0]["rules"]["kl"]
    assert flags == {"frozen": False, "loose": True}  # KL from uniform is far above 0.01

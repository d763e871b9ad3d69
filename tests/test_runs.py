"""`dacg runs list` / `dacg runs drop RUN|--older-than` on both stores (issue 15, item 11):
run graphs no longer pile up, and the knowledge graph is never touched."""

from __future__ import annotations

import json
import os
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.runs import parse_age, run_created, run_namespace, runs_older_than

NOW = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


def test_run_names_carry_their_start_time() -> None:
    name = run_namespace("zinc -> common cold", NOW)
    assert name.startswith("run-zinc-common-cold-20260301T120000Z-") and len(name) <= 100
    assert run_created(name) == NOW
    assert run_created("run-zinc-cold-1a2b3c4d") is None  # named before times were kept
    assert run_created("kg") is None


@pytest.mark.parametrize("text, age", [("30m", timedelta(minutes=30)), ("12h", timedelta(hours=12)),
                                       ("7D", timedelta(days=7)), ("2w", timedelta(weeks=2)),
                                       ("0s", timedelta(0))])
def test_ages(text: str, age: timedelta) -> None:
    assert parse_age(text) == age


@pytest.mark.parametrize("text", ["", "7", "d", "-1d", "1.5h", "7 days"])
def test_bad_ages(text: str) -> None:
    with pytest.raises(ValueError, match="age must be"):
        parse_age(text)


def test_only_runs_older_than_the_age_are_chosen() -> None:
    old = run_namespace("a", NOW - timedelta(days=8))
    recent = run_namespace("b", NOW - timedelta(days=6))
    names = ["kg", old, recent, "run-untimed-1a2b3c4d"]
    assert runs_older_than(names, timedelta(days=7), NOW) == [old]
    assert runs_older_than(names, timedelta(0), NOW) == [old, recent]


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store_args(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[list[str], dict]:
    if request.param == "embedded":
        return ["--store", "embedded", "--db", str(tmp_path / "g.sqlite")], {"NEO4J_URI": ""}
    server = request.getfixturevalue("neo4j_server")
    return ["--store", "neo4j"], {"NEO4J_URI": server.uri, "NEO4J_USER": server.user,
                                  "NEO4J_PASSWORD": server.password}


def test_list_and_drop_runs(tmp_path: Path, store_args: tuple[list[str], dict]) -> None:
    args, env = store_args
    runner = CliRunner()

    def dacg(*command: str) -> str:
        result = runner.invoke(app, [*command, *args], env={**env, "COLUMNS": "300"})
        assert result.exit_code == 0, result.stderr
        return result.stdout

    tag = uuid.uuid4().hex[:6]
    evidence = tmp_path / "e.jsonl"
    evidence.write_text(json.dumps({"head": "a", "tail": "b", "polarity": 1,
                                    "confidence": 0.5, "pmid": "1"}) + "\n")
    old = f"run-old-{tag}-20200101T000000Z-abcdef12"
    kg = f"kg-{tag}"
    dacg("ingest", str(evidence), "--namespace", old)
    dacg("ingest", str(evidence), "--namespace", kg)
    answer = json.loads(dacg("query", "vitamin D3 supplementation", "albuminuria",
                             "--source", "simulated", "--json"))
    fresh = answer["run"]
    listed = dacg("runs", "list")
    assert old in listed and fresh in listed and kg not in listed
    assert "2020-01-01 00:00:00" in listed
    assert dacg("runs", "drop", "--older-than", "1000d").startswith("dropped")
    listed = dacg("runs", "list")
    assert old not in listed and fresh in listed
    assert dacg("runs", "drop", fresh) == "dropped 1 run graph\n"
    assert fresh not in dacg("runs", "list")
    kept = json.loads(dacg("query", "a", "b", "--source", "kg", "--namespace", kg, "--json"))
    assert kept["paths"][0]["nodes"] == ["a", "b"]  # the knowledge graph is untouched


@pytest.mark.parametrize("command, code, message", [
    (["runs", "drop"], 2, "give run ids or --older-than"),
    (["runs", "drop", "kg"], 2, "'kg' is not a run graph"),
    (["runs", "drop", "run-x", "--older-than", "1d"], 2, "give run ids or --older-than"),
    (["runs", "drop", "--older-than", "soon"], 2, "age must be"),
    (["runs", "drop", "run-missing-1a2b3c4d"], 1, "no run graph named 'run-missing-1a2b3c4d'"),
])
def test_drop_mistakes_are_one_line(tmp_path: Path, command: list[str], code: int,
                                    message: str) -> None:
    db = tmp_path / "g.sqlite"
    result = CliRunner().invoke(app, [*command, "--db", str(db)], env={"NEO4J_URI": ""})
    assert result.exit_code == code
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert os.path.exists(db) == (code == 1)  # usage mistakes never open the store

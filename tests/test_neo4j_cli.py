"""`dacg ingest` against a real Neo4j: crash safety, bad input, and connection errors."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from _synthetic import random_stream
from neo4j import Driver

SECRET = "s3cret-Pa55word-never-shown"


def dacg(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "pipeline", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def server_env(server: object) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NEO4J_URI": server.uri,
            "NEO4J_USER": server.user, "NEO4J_PASSWORD": server.password}


def write_stream(path: Path, rows: int, seed: int) -> Path:
    with path.open("w", encoding="utf-8") as out:
        for e in random_stream(rows, entities=3000, pmids=20_000, seed=seed):
            out.write(json.dumps({"head": e.head.name, "tail": e.tail.name,
                                  "polarity": int(e.polarity), "confidence": e.confidence,
                                  "pmid": e.pmid, "sentence": e.sentence}) + "\n")
    return path


def dump(driver: Driver, ns: str) -> list[tuple]:
    """Every entity and edge of a namespace with all of its evidence."""
    records, _, _ = driver.execute_query(
        "MATCH (n:Entity {ns: $ns}) OPTIONAL MATCH (n)-[r:CAUSES]->(t) "
        "RETURN n.id, n.name, t.id, r.polarity, r.belief, r.pmids, r.confidences, "
        "r.sentences, r.years, r.steps ORDER BY n.id, t.id, r.polarity", ns=ns)
    return [tuple(r.values()) for r in records]


def evidence_count(driver: Driver, ns: str) -> int:
    records, _, _ = driver.execute_query(
        "MATCH (:Entity {ns: $ns})-[r:CAUSES]->() RETURN sum(r.evidence_count) AS n", ns=ns)
    return int(records[0]["n"] or 0)


@pytest.mark.neo4j
def test_kill_9_between_batches_then_rerun_equals_uninterrupted(
        neo4j_server: object, neo4j_driver: Driver, tmp_path: Path) -> None:
    source = write_stream(tmp_path / "stream.jsonl", rows=20_000, seed=11)
    env = server_env(neo4j_server)
    killed, clean = f"killed-{uuid.uuid4().hex[:8]}", f"clean-{uuid.uuid4().hex[:8]}"
    args = ("ingest", str(source), "--store", "neo4j", "--batch-size", "500")

    process = dacg(*args, "--namespace", killed, env=env)
    deadline = time.monotonic() + 120
    while evidence_count(neo4j_driver, killed) == 0 and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    partial = evidence_count(neo4j_driver, killed)

    for ns in (killed, clean):
        finished = dacg(*args, "--namespace", ns, env=env)
        out, err = finished.communicate(timeout=300)
        assert finished.returncode == 0, err
    complete = evidence_count(neo4j_driver, clean)
    assert 0 < partial < complete, "the kill must land part-way through the ingest"
    assert dump(neo4j_driver, killed) == dump(neo4j_driver, clean)


@pytest.mark.neo4j
def test_wrong_password_is_one_line_naming_the_uri(neo4j_server: object,
                                                   tmp_path: Path) -> None:
    env = server_env(neo4j_server) | {"NEO4J_PASSWORD": SECRET}
    process = dacg("query", "zinc", "cold", "--store", "neo4j", env=env)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 1
    assert err.strip().splitlines() == [
        f"error: Neo4j at {neo4j_server.uri} rejected the credentials of user "
        f"'{neo4j_server.user}'"]
    assert SECRET not in out + err


def test_neo4j_down_is_one_line_naming_the_uri(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    uri = f"bolt://127.0.0.1:{port}"
    env = {"PATH": os.environ.get("PATH", ""), "NEO4J_URI": uri, "NEO4J_PASSWORD": SECRET}
    process = dacg("query", "zinc", "cold", env=env)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: cannot reach Neo4j at {uri}")
    assert SECRET not in out + err and "Traceback" not in err


def test_malformed_uri_is_one_line() -> None:
    env = {"PATH": os.environ.get("PATH", ""), "NEO4J_URI": "htp://nowhere",
           "NEO4J_PASSWORD": SECRET}
    process = dacg("query", "zinc", "cold", env=env)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1 and len(err.strip().splitlines()) == 1
    assert "htp://nowhere" in err and SECRET not in err

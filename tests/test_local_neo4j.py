"""The session's Neo4j is a real 5.26 that enforces its password; the launcher behaves."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from neo4j import Driver, GraphDatabase
from neo4j.exceptions import AuthError

from pipeline.graph.local_neo4j import MAIN_CLASS, stop_local_neo4j

if TYPE_CHECKING:
    from conftest import Neo4jServer


def only_local(server: Neo4jServer) -> None:
    if server.origin != "local":
        pytest.skip(f"checks the local launcher; this session's Neo4j is from {server.origin}")


@pytest.mark.neo4j
def test_bolt_answers(neo4j_driver: Driver) -> None:
    records, _, _ = neo4j_driver.execute_query("RETURN 1 AS one")
    assert records[0]["one"] == 1


@pytest.mark.neo4j
def test_wrong_password_is_rejected(neo4j_server: Neo4jServer) -> None:
    auth = (neo4j_server.user, neo4j_server.password + "-wrong")
    with GraphDatabase.driver(neo4j_server.uri, auth=auth) as driver, \
            pytest.raises(AuthError):
        driver.verify_connectivity()


@pytest.mark.neo4j
def test_is_neo4j_5_26(neo4j_driver: Driver) -> None:
    records, _, _ = neo4j_driver.execute_query(
        "CALL dbms.components() YIELD name, versions RETURN name, versions")
    kernel = {r["name"]: r["versions"] for r in records}["Neo4j Kernel"]
    assert kernel[0].startswith("5.26."), kernel


@pytest.mark.neo4j
def test_local_http_serves_browser(neo4j_server: Neo4jServer) -> None:
    only_local(neo4j_server)
    with urllib.request.urlopen(f"{neo4j_server.http_uri}/browser/", timeout=30) as response:
        status, body = response.status, response.read().decode("utf-8", "replace")
    assert status == 200
    assert "<html" in body.lower() and "Neo4j" in body


@pytest.mark.neo4j
def test_local_launcher_process_is_alive(neo4j_server: Neo4jServer) -> None:
    only_local(neo4j_server)
    assert neo4j_server.pid is not None
    os.kill(neo4j_server.pid, 0)  # raises if gone
    cmdline = Path(f"/proc/{neo4j_server.pid}/cmdline")
    if cmdline.exists():
        args = cmdline.read_bytes().split(b"\0")
        assert MAIN_CLASS.encode() in args
        assert not any(neo4j_server.password.encode() in a for a in args)  # not visible in ps


def test_stop_on_dead_or_missing_pid_is_quiet() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert stop_local_neo4j(child.pid, timeout=1.0) is None  # exited and reaped: no error
    assert stop_local_neo4j(4_194_305, timeout=1.0) is None  # above any pid_max: never existed
    with pytest.raises(ValueError, match="not a process id"):  # 0 would signal a group
        stop_local_neo4j(0, timeout=1.0)


def test_stop_refuses_a_process_that_is_not_a_launcher() -> None:
    with pytest.raises(RuntimeError, match="not a DACG Neo4j launcher"):
        stop_local_neo4j(os.getpid(), timeout=1.0)

"""Session fixtures for a real Neo4j 5.26: `neo4j_server` and `neo4j_driver`.

The server comes from, in order: NEO4J_URI (+ NEO4J_USER, NEO4J_PASSWORD); a Docker engine
(testcontainers); a local JVM started from Maven Central jars (Java 17+ and Maven). Without
any of them Neo4j tests skip, except under CI=true where they fail. Nothing starts until a
test asks for a fixture, and then only once per session.
"""

from __future__ import annotations

import atexit
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from neo4j import Driver, GraphDatabase

from pipeline.graph.local_neo4j import (
    QUICK_START_JVM_OPTIONS,
    local_neo4j_possible,
    start_local_neo4j,
    stop_local_neo4j,
)

NEO4J_IMAGE = "neo4j:5.26-community"


@dataclass(frozen=True)
class Neo4jServer:
    """Where the session's Neo4j listens and how to log in."""

    uri: str
    user: str
    password: str = field(repr=False)  # keep it out of failure reports
    http_uri: str | None
    origin: str  # "env" | "testcontainers" | "local"
    pid: int | None = None  # the launcher's PID when origin == "local"


def _docker_answers() -> bool:
    """True if a Docker engine responds (the client alone is not enough)."""
    try:
        import docker

        client = docker.from_env()
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


def _from_testcontainers(password: str) -> Iterator[Neo4jServer]:
    try:
        from testcontainers.community.neo4j import Neo4jContainer  # testcontainers >= 4.14
    except ImportError:
        from testcontainers.neo4j import Neo4jContainer

    container = Neo4jContainer(NEO4J_IMAGE, password=password).with_exposed_ports(7474)
    with container:
        host = container.get_container_host_ip()
        yield Neo4jServer(uri=container.get_connection_url(), user=container.username,
                          password=password,
                          http_uri=f"http://{host}:{container.get_exposed_port(7474)}",
                          origin="testcontainers")


def _from_local_jvm(password: str, home_factory: pytest.TempPathFactory) -> Iterator[Neo4jServer]:
    try:
        local = start_local_neo4j(password, home=home_factory.mktemp("neo4j"),
                                  exit_with_parent=True, jvm_options=QUICK_START_JVM_OPTIONS)
    except RuntimeError as exc:
        pytest.fail(f"local Neo4j did not start: {exc}", pytrace=False)

    def stop() -> None:
        stop_local_neo4j(local.pid)

    atexit.register(stop)  # in case the session dies before fixture teardown
    try:
        yield Neo4jServer(uri=local.bolt_uri, user="neo4j", password=password,
                          http_uri=local.http_uri, origin="local", pid=local.pid)
    finally:
        stop()
        atexit.unregister(stop)


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jServer]:
    """A running Neo4j 5.26 for the whole session (see the module docstring for the order)."""
    uri = os.environ.get("NEO4J_URI")
    if uri:
        yield Neo4jServer(uri=uri, user=os.environ.get("NEO4J_USER", "neo4j"),
                          password=os.environ.get("NEO4J_PASSWORD", ""), http_uri=None,
                          origin="env")
        return
    password = secrets.token_urlsafe(18)
    if _docker_answers():
        yield from _from_testcontainers(password)
        return
    reason = local_neo4j_possible()
    if reason is None:
        yield from _from_local_jvm(password, tmp_path_factory)
        return
    message = (f"no Neo4j for these tests ({reason}). Set NEO4J_URI (and NEO4J_USER, "
               "NEO4J_PASSWORD) to a running Neo4j 5, or install a Docker engine, or install "
               "Java 17+ and Maven so a local Neo4j can be started")
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def neo4j_driver(neo4j_server: Neo4jServer) -> Iterator[Driver]:
    """The official driver, connected to `neo4j_server`, closed at session end."""
    driver = GraphDatabase.driver(neo4j_server.uri,
                                  auth=(neo4j_server.user, neo4j_server.password))
    try:
        driver.verify_connectivity()
        yield driver
    finally:
        driver.close()

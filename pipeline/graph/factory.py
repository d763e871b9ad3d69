"""Choose the backend: Neo4j when configured (or asked for), else the embedded store."""

from __future__ import annotations

import sqlite3
from enum import StrEnum
from pathlib import Path

from pipeline.graph.embedded_store import EmbeddedStore
from pipeline.graph.store import GraphStore, StoreUnavailable
from pipeline.settings import Settings, redact_uri


class StoreKind(StrEnum):
    EMBEDDED = "embedded"
    NEO4J = "neo4j"


def open_store(settings: Settings, kind: StoreKind | None = None,
               embedded_path: Path | None = None) -> GraphStore:
    """Neo4j when NEO4J_URI is set (or kind says so), else SQLite at the embedded path."""
    chosen = kind or (StoreKind.NEO4J if settings.neo4j_uri else StoreKind.EMBEDDED)
    if chosen is StoreKind.EMBEDDED:
        return EmbeddedStore(embedded_path or settings.embedded_path)
    if not settings.neo4j_uri:
        raise StoreUnavailable("--store neo4j needs NEO4J_URI (and NEO4J_PASSWORD) to be set")
    from pipeline.graph.neo4j_store import connect

    return connect(settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password,
                   settings.neo4j_database)


def store_location(settings: Settings, kind: StoreKind | None = None,
                   embedded_path: Path | None = None) -> str:
    """Where the chosen store lives, for messages: the file, or the URI without secrets."""
    chosen = kind or (StoreKind.NEO4J if settings.neo4j_uri else StoreKind.EMBEDDED)
    if chosen is StoreKind.EMBEDDED:
        return f"embedded store {embedded_path or settings.embedded_path}"
    return f"Neo4j at {redact_uri(settings.neo4j_uri or '')}"


def store_faults() -> tuple[type[BaseException], ...]:
    """The errors a backend raises when it, not the caller, fails (evaluated only when an
    error is being handled, so the Neo4j driver is imported only when it can matter)."""
    from neo4j.exceptions import DriverError, Neo4jError

    return (sqlite3.Error, DriverError, Neo4jError)

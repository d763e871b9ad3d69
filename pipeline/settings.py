"""Connection settings from the environment. Secrets are held, never shown or written."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_EMBEDDED_PATH = Path(".dacg") / "graph.sqlite"


@dataclass(frozen=True)
class Settings:
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str = field(default="", repr=False)
    neo4j_database: str | None = None
    embedded_path: Path = DEFAULT_EMBEDDED_PATH

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            neo4j_uri=os.environ.get("NEO4J_URI") or None,
            neo4j_user=os.environ.get("NEO4J_USER", "neo4j"),
            neo4j_password=os.environ.get("NEO4J_PASSWORD", ""),
            neo4j_database=os.environ.get("NEO4J_DATABASE") or None,
            embedded_path=Path(os.environ.get("DACG_DB", str(DEFAULT_EMBEDDED_PATH))),
        )


REDACTED = "***"


def redact_uri(uri: str) -> str:
    """A URI safe to print: user info (user:password@) and the query (?password=...) are
    replaced, as either may hold a credential; an unparseable URI is not shown at all."""
    try:
        parts = urlsplit(uri.strip())
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "<unparseable URI>"
    netloc = (f"[{host}]" if ":" in host else host) + (f":{port}" if port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, REDACTED if parts.query else "", ""))

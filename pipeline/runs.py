"""Run graphs: every agent run writes its own namespace, `run-<query>-<UTC time>-<hex>`;
these helpers name them and pick the ones to drop by age. Pure: no store, no clock read."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

RUN_PREFIX = "run-"
_STAMP = "%Y%m%dT%H%M%SZ"
_STAMPED = re.compile(r"-(\d{8}T\d{6}Z)-[0-9a-f]{8}$")
_AGE = re.compile(r"(\d+)([smhdw])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def run_namespace(query_id: str, now: datetime) -> str:
    """run-<query id as letters, digits and single dashes>-<UTC time>-<8 hex>: readable in
    Browser, and its age is in its name (the same on both stores)."""
    safe = "-".join("".join(ch if ch.isalnum() else " " for ch in query_id).split())[:60]
    return f"{RUN_PREFIX}{safe}-{now.astimezone(UTC).strftime(_STAMP)}-{uuid.uuid4().hex[:8]}"


def is_run(namespace: str) -> bool:
    return namespace.startswith(RUN_PREFIX)


def run_created(namespace: str) -> datetime | None:
    """When the run started, from its name (None for runs named before times were kept)."""
    found = _STAMPED.search(namespace)
    if not is_run(namespace) or found is None:
        return None
    return datetime.strptime(found[1], _STAMP).replace(tzinfo=UTC)


def parse_age(text: str) -> timedelta:
    """'30m', '12h', '7d', '2w' (or '0s'); ValueError otherwise."""
    match = _AGE.fullmatch(text.strip().lower())
    if match is None:
        raise ValueError(f"age must be a number and a unit s, m, h, d or w (e.g. 7d), "
                         f"got {text!r}")
    return timedelta(**{_UNITS[match[2]]: int(match[1])})


def runs_older_than(namespaces: Iterable[str], age: timedelta, now: datetime) -> list[str]:
    """The run namespaces started more than `age` before `now` (untimed runs are kept)."""
    return [ns for ns in namespaces
            if (created := run_created(ns)) is not None and now - created > age]

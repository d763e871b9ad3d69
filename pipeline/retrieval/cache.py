"""On-disk cache of E-utilities answers, keyed by the request, so runs replay offline.

The key and the stored file hold the request parameters minus credentials and identity
(api_key, email, tool): a replay must not depend on who recorded it, and nothing secret
may reach the disk. Entries are written atomically after the answer parsed cleanly.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path

from pipeline.retrieval.source import SourceUnavailable

PRIVATE_PARAMS = frozenset({"api_key", "email", "tool"})


class CacheMode(StrEnum):
    """off: always ask NCBI; readwrite: answer from disk when possible, record the rest;
    offline: answer from disk only (a miss is an error)."""

    OFF = "off"
    READWRITE = "readwrite"
    OFFLINE = "offline"


class CacheMiss(SourceUnavailable):
    """Offline mode and the request was never recorded."""


def public_params(params: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in sorted(params.items()) if k not in PRIVATE_PARAMS}


def cache_key(endpoint: str, params: Mapping[str, str]) -> str:
    canonical = json.dumps({"endpoint": endpoint, "params": public_params(params)},
                           sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


class ResponseCache:
    def __init__(self, directory: Path | str, mode: CacheMode = CacheMode.READWRITE) -> None:
        self.directory = Path(directory)
        self.mode = CacheMode(mode)

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, endpoint: str, params: Mapping[str, str]) -> bytes | None:
        """The recorded body, or None on a miss (CacheMiss in offline mode)."""
        if self.mode is CacheMode.OFF:
            return None
        key = cache_key(endpoint, params)
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
        except FileNotFoundError:
            entry = None
        if entry is not None:
            return str(entry["body"]).encode("utf-8")
        if self.mode is CacheMode.OFFLINE:
            shown = ", ".join(f"{k}={v[:60]}" for k, v in public_params(params).items())
            raise CacheMiss(f"offline: no cached {endpoint} answer for {shown} "
                            f"(key {key[:12]}); run once online to record it")
        return None

    def put(self, endpoint: str, params: Mapping[str, str], body: bytes) -> None:
        if self.mode is not CacheMode.READWRITE:
            return
        path = self._path(cache_key(endpoint, params))
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {"endpoint": endpoint, "params": public_params(params),
                 "body": body.decode("utf-8", errors="replace")}
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent,
                                         suffix=".tmp", delete=False) as handle:
            json.dump(entry, handle, ensure_ascii=False)
        os.replace(handle.name, path)

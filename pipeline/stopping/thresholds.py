"""The thresholds in force: the ones `dacg bench tune` froze on the validation split
(data/eval/thresholds.json, shipped with DACG). `dacg query`, `dacg demo` and every
`dacg bench` table read them here, so the answer a user gets is the one the report scores."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from pipeline.resources import shipped
from pipeline.stopping.policies import PAPER_THRESHOLDS, Thresholds

FROZEN_THRESHOLDS = "data/eval/thresholds.json"


def thresholds_from_json(data: Mapping[str, Any]) -> Thresholds:
    """Thresholds from a frozen config; unknown keys are an error, not ignored."""
    known = set(asdict(PAPER_THRESHOLDS))
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown thresholds {', '.join(unknown)}")
    return replace(PAPER_THRESHOLDS, **data)


def frozen_path() -> Path:
    """The shipped frozen thresholds (MissingResource if the installation lacks them)."""
    return shipped(FROZEN_THRESHOLDS)


def load_thresholds(path: Path | None = None) -> Thresholds:
    """The thresholds frozen in `path` (default: the shipped file); ValueError naming the
    file if it is not a thresholds file."""
    path = path or frozen_path()
    try:
        return thresholds_from_json(json.loads(path.read_text(encoding="utf-8"))["thresholds"])
    except (ValueError, KeyError, TypeError) as error:
        detail = f"no {error}" if isinstance(error, KeyError) else str(error)
        raise ValueError(f"{path}: not a thresholds file ({detail})") from None

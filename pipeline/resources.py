"""Files shipped with DACG (Cypher, PRM weights, the confidence model, the frozen
thresholds), found the same way in a source checkout and in an installed wheel, where they
are package data (pyproject.toml maps each into the `pipeline` package)."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_BASES = (_PACKAGE.parent, _PACKAGE)  # a checkout (or editable install), then a wheel

# The large corpora (Evidence Inference, MedEvidence, MeSH, recorded E-utilities) are not
# shipped: they sit in ../shared/data next to a checkout; commands default to them and
# tests skip when they are absent.
SHARED_DATA = _PACKAGE.parent.parent / "shared" / "data"
MEDEVIDENCE_DEV = SHARED_DATA / "medevidence" / "dev.jsonl"


class MissingResource(FileNotFoundError):
    """A file that should ship with DACG is not there: the installation is incomplete."""


def shipped(relative: str) -> Path:
    """The shipped file or folder at `relative` (e.g. "data/prm"); MissingResource names
    where it was looked for, so a broken installation is never silently degraded."""
    for base in _BASES:
        if (base / relative).exists():
            return base / relative
    raise MissingResource(f"{relative} is missing from this installation (looked in "
                          f"{' and '.join(str(b) for b in _BASES)}); reinstall DACG")

"""Load the Cypher queries kept as .cypher files, by name."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_CANDIDATES = (
    Path(__file__).resolve().parents[2] / "cypher",  # a source checkout / editable install
    Path(__file__).resolve().parents[1] / "cypher",  # an installed wheel
)


@cache
def query(name: str) -> str:
    """The text of cypher/NAME.cypher; raises FileNotFoundError naming the file."""
    for folder in _CANDIDATES:
        path = folder / f"{name}.cypher"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(f"no Cypher query named {name!r} in {_CANDIDATES[0]}")


def statements(name: str) -> list[str]:
    """A file holding several statements (schema), split on ';' at line ends."""
    text = "\n".join(line for line in query(name).splitlines()
                     if not line.lstrip().startswith("//"))
    return [part.strip() for part in text.split(";\n") if part.strip().rstrip(";")]

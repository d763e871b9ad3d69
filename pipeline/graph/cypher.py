"""Load the Cypher queries kept as .cypher files, by name."""

from __future__ import annotations

from functools import cache

from pipeline.resources import shipped


@cache
def query(name: str) -> str:
    """The text of cypher/NAME.cypher; raises FileNotFoundError naming the file."""
    return shipped(f"cypher/{name}.cypher").read_text(encoding="utf-8")


def statements(name: str) -> list[str]:
    """A file holding several statements (schema), split on ';' at line ends."""
    text = "\n".join(line for line in query(name).splitlines()
                     if not line.lstrip().startswith("//"))
    return [part.strip() for part in text.split(";\n") if part.strip().rstrip(";")]

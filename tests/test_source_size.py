"""The README's promise to a newcomer (issue 17): no source file over 600 lines, so that
each module can be read whole and has one job. A file that outgrows it is split by job,
as `pipeline/extraction/rules.py` was (its helpers are now clauses, cues, arms, values
and nulls)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 600  # README.md, "A house a newcomer can carry on (issue 17)"
CHECKED = ("pipeline", "benchmarks")  # the package and the benchmark scripts


def source_files() -> list[Path]:
    return sorted(path for folder in CHECKED for path in (ROOT / folder).rglob("*.py"))


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_walk_sees_the_source() -> None:
    """If the walk found no files, the size check below would pass vacuously."""
    files = source_files()
    assert ROOT / "pipeline" / "extraction" / "rules.py" in files
    assert any(path.parent.name == "benchmarks" for path in files)
    assert len(files) > 50


def test_no_source_file_is_over_600_lines() -> None:
    too_long = {str(path.relative_to(ROOT)): count for path in source_files()
                if (count := lines(path)) > MAX_LINES}
    assert not too_long, (f"over {MAX_LINES} lines, split by job: "
                          + ", ".join(f"{name} ({count})" for name, count in too_long.items()))

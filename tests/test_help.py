"""Every `dacg ... --help` reads as whole sentences.

Rendered on a terminal wide enough that rich never wraps a line (COLUMNS=1000), a line
break in a command's description or in a group's command list can only come from the help
text itself. The rule checked: every line of a command's description, and every row of a
command list, ends with a full stop; a line that ends otherwise is a sentence broken by a
hard line break (or a help text that is not a sentence). Option and argument help texts
are one line each and end with a full stop too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from pipeline.cli import app

WIDE = {"COLUMNS": "1000"}


def command_paths() -> Iterator[tuple[list[str], Any]]:
    """(path below `dacg`, click command) for `dacg` and every group and command under it."""
    root = typer.main.get_command(app)

    def walk(command: Any, path: list[str], parent: Any) -> Iterator[tuple[list[str], Any]]:
        yield path, command
        if hasattr(command, "list_commands"):
            context = type(parent)(command, parent=parent, info_name=path[-1] if path else "dacg")
            for name in command.list_commands(context):
                yield from walk(command.get_command(context, name), [*path, name], context)

    from typer.core import TyperGroup

    assert isinstance(root, TyperGroup)
    context = root.make_context("dacg", [], resilient_parsing=True)
    yield from walk(root, [], context)


PATHS = [path for path, _ in command_paths()]


def description_lines(output: str) -> list[str]:
    """The lines between the usage line and the first panel."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("Usage:"))
    end = next((i for i, line in enumerate(lines) if line.startswith("╭")), len(lines))
    return [line.strip() for line in lines[start + 1:end] if line.strip()]


def command_rows(output: str) -> list[str]:
    """The rows of the Commands panel, each `name  help`."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("╭─ Commands")), None)
    if start is None:
        return []
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("╰"):
            break
        rows.append(line.strip("│ "))
    return rows


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(["dacg", *path]))
def test_help_lines_end_as_sentences(path: list[str]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env=WIDE)
    assert result.exit_code == 0, result.output
    description = description_lines(result.stdout)
    assert description, result.stdout
    for line in description + command_rows(result.stdout):
        assert line.endswith("."), f"`dacg {' '.join(path)} --help` breaks off at: {line!r}"


def test_every_command_has_its_rows_one_per_line() -> None:
    """A group's command list has exactly one row per command (a second row would be a
    wrapped help text), so the check above sees each help text whole."""
    for path, command in command_paths():
        if not hasattr(command, "list_commands"):
            continue
        result = CliRunner().invoke(app, [*path, "--help"], env=WIDE)
        names = [row.split()[0] for row in command_rows(result.stdout)]
        assert sorted(names) == sorted(c for c in command.commands), path


def test_option_and_argument_help_is_one_sentence_line() -> None:
    for path, command in command_paths():
        for param in command.params:
            text = getattr(param, "help", None)
            if text is None:
                continue
            assert "\n" not in text and text.endswith("."), (path, param.name, text)

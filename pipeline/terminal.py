"""What every `dacg` command group shares: the two consoles, how a group is made and
how it fails."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console
from rich.progress import Progress
from typer.core import TyperGroup

from pipeline.graph.store import StoreUnavailable
from pipeline.jsonl import JsonlError
from pipeline.model import InvalidEvidence
from pipeline.retrieval.source import SourceError

# Names come from users and from abstracts ("benzo[a]pyrene", ":cold:"), so nothing printed
# is read as rich markup or emoji codes; styling is done with rich.text.Text.
console = Console(markup=False, emoji=False)
errors = Console(stderr=True, markup=False, emoji=False, soft_wrap=True)  # one line each

# Faults of the world rather than of the code: a file or store that cannot be read or
# written, an input that cannot be parsed. Each becomes one line and exit 1.
FAULTS = (OSError, StoreUnavailable, InvalidEvidence, JsonlError, SourceError, RecursionError)


def progress_bar() -> Progress:
    """A transient progress bar on stderr, shown on a terminal only (elsewhere it would add
    a blank line to what must be one line of error)."""
    return Progress(console=errors, transient=True, disable=not errors.is_terminal)


@contextmanager
def counted(description: str, total: int) -> Iterator[Callable[..., None]]:
    """A progress bar (see progress_bar) over `total` items, and the callback a long job
    calls to count items done: `advance()` one, `advance(n)` n."""
    with progress_bar() as progress:
        task = progress.add_task(description, total=total)
        yield lambda n=1: progress.advance(task, n)


class Stopwatch:
    """Wall-clock seconds since it was made: commands say how long they took."""

    def __init__(self) -> None:
        self.started = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


def one_line(error: BaseException) -> str:
    """A fault as one line: an OSError names its file; nothing spans lines."""
    if isinstance(error, RecursionError):
        return "input nested too deeply"
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        return f"{error.filename}: {error.strerror}"
    return " ".join(str(error).split()) or type(error).__name__


class FaultBoundary(TyperGroup):
    """The CLI's one error boundary: any fault raised by any command becomes one line on
    stderr and exit 1 (usage mistakes are click's, exit 2), never a traceback."""

    def invoke(self, ctx: Any) -> Any:  # a click Context (typer vendors click)
        try:
            return super().invoke(ctx)
        except FAULTS as error:
            raise fail(one_line(error)) from None

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The subcommand, its help text unwrapped (see `unwrapped`): both its own `--help`
        and this group's command list reach it through here."""
        command = super().get_command(ctx, cmd_name)
        if command is not None and command.help:
            command.help = unwrapped(command.help)
        return command


def unwrapped(text: str) -> str:
    """A docstring with each paragraph on one line. Typer 0.29 (rich markup mode) keeps a
    docstring's single line breaks in a group's command list and in every paragraph after
    the first, so a docstring wrapped at the source's 100 columns would show in `--help`
    broken mid-sentence; rich wraps the joined lines to the terminal instead."""
    return "\n\n".join(" ".join(paragraph.split())
                        for paragraph in inspect.cleandoc(text).split("\n\n"))


def command_group(help_text: str) -> typer.Typer:
    """A Typer group whose single command stays a subcommand (`dacg prm train`, not
    `dacg prm`), also when the module runs on its own."""
    group = typer.Typer(help=help_text, no_args_is_help=True, add_completion=False,
                        pretty_exceptions_enable=False, cls=FaultBoundary)
    group.callback()(lambda: None)
    return group


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print a one-line error (no markup: paths may hold brackets) and return the Exit to
    raise."""
    errors.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(code)

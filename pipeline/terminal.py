"""What every `dacg` command group shares: the two consoles, how a group is made and
how it fails."""

from __future__ import annotations

import typer
from rich.console import Console

console = Console()
errors = Console(stderr=True)


def command_group(help_text: str) -> typer.Typer:
    """A Typer group whose single command stays a subcommand (`dacg prm train`, not
    `dacg prm`), also when the module runs on its own."""
    group = typer.Typer(help=help_text, no_args_is_help=True, add_completion=False,
                        pretty_exceptions_enable=False)
    group.callback()(lambda: None)
    return group


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print a one-line error (no markup: paths may hold brackets) and return the Exit to
    raise."""
    errors.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(code)

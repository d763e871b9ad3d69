"""`dacg prm train`: fit the process reward model on recorded trajectories, split by the
benchmark's query splits (train to fit, validation to early-stop, test held out)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from pipeline.model import SPLITS
from pipeline.recordings import read_labelled_records, sha256_file
from pipeline.terminal import command_group, console, fail

app = command_group("The process reward model (PRM) of the DACG stopping policy.")


@app.command()
def train(
    records: Annotated[list[Path], typer.Option(
        "--records", help="Trajectory JSONL (repeat for several files).")],
    queries: Annotated[Path, typer.Option(
        help="queries.jsonl with each query's id, true label and split.")],
    out: Annotated[Path, typer.Option(help="Directory for weights.npz and metadata.json.")]
    = Path("data/prm"),
    seed: Annotated[int, typer.Option(help="Seed; same seed and data, same model.")] = 0,
    epochs: Annotated[int, typer.Option(min=1, help="Most training epochs.")] = 200,
    patience: Annotated[int, typer.Option(
        min=1, help="Epochs without a better validation loss before stopping.")] = 20,
) -> None:
    """Train the PRM on the train split, early-stop on validation, report test accuracy."""
    try:  # first, so a default install (no torch) is told at once
        import torch  # noqa: F401
    except ImportError:
        raise fail("training the PRM needs torch, which the default install leaves out: "
                   "install the train extra (pip install -e '.[train]' in the DACG clone)"
                   ) from None
    from pipeline.stopping.prm import TrainConfig, train_prm

    try:
        truth, split_of, runs = read_labelled_records(records, queries)
    except FileNotFoundError as error:
        raise fail(str(error), 2) from None
    except (ValueError, OSError) as error:
        raise fail(str(error)) from None
    splits = {name: {q: steps for q, steps in runs.items() if split_of[q] == name}
              for name in SPLITS}
    sources = {str(path): sha256_file(path) for path in [*records, queries]}
    try:
        model, report = train_prm(splits["train"], splits["validation"], truth, seed,
                                  test=splits["test"], sources=sources,
                                  config=TrainConfig(epochs=epochs, patience=patience))
        model.save(out)
    except (ValueError, OSError) as error:
        raise fail(str(error)) from None
    table = Table(title="PRM pairwise accuracy (share of pairs with r_correct > r_wrong)")
    for column in ("split", "queries", "pairs", "pairwise accuracy"):
        table.add_column(column, justify="left" if column == "split" else "right")
    for name in SPLITS:
        accuracy = report["pairwise_accuracy"][name]
        table.add_row(name + (" (held out)" if name == "test" else ""),
                      str(len(splits[name])), str(report["pairs"][name]),
                      "-" if accuracy is None else f"{100 * accuracy:.1f}%")
    console.print(table)
    console.print(f"best validation loss {report['validation_loss']:.4f} at epoch "
                  f"{report['best_epoch']} of {report['epochs_run']}; trained in "
                  f"{report['seconds']:.1f} s; PRM written to {out}", highlight=False)

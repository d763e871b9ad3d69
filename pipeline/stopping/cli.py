"""`dacg prm train`: fit the process reward model on recorded trajectories, split by the
benchmark's query splits (train to fit, validation to early-stop, test held out)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from pipeline.terminal import command_group, console, errors
from pipeline.trajectory import StepRecord, read_trajectories

app = command_group("The process reward model (PRM) of the DACG stopping policy.")

SPLITS = ("train", "validation", "test")



def fail(message: str, code: int = 1) -> typer.Exit:
    errors.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(code)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_queries(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """True label and split by query id from queries.jsonl (`id`, `label`, `split`)."""
    truth: dict[str, str] = {}
    split: dict[str, str] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                query_id, label, part = str(row["id"]), str(row["label"]), str(row["split"])
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}, line {number}: not a query row ({error})") from None
            if part not in SPLITS:
                raise ValueError(f"{path}, line {number}: split {part!r} is not one of "
                                 f"{', '.join(SPLITS)}")
            truth[query_id], split[query_id] = label, part
    return truth, split


def read_records(paths: list[Path]) -> dict[str, list[StepRecord]]:
    """All recorded runs; one query recorded in two files is ambiguous, so refused."""
    runs: dict[str, list[StepRecord]] = {}
    seen_in: dict[str, Path] = {}
    for path in paths:
        try:
            file_runs = read_trajectories(path)
        except (ValueError, TypeError) as error:
            raise ValueError(f"{path}: not a trajectory file ({error})") from None
        for query_id, steps in file_runs.items():
            if query_id in runs:
                raise ValueError(f"query {query_id!r} is recorded in both {seen_in[query_id]} "
                                 f"and {path}")
            runs[query_id], seen_in[query_id] = steps, path
    return runs


def read_labelled_records(records: list[Path], queries: Path
                          ) -> tuple[dict[str, str], dict[str, str], dict[str, list[StepRecord]]]:
    """True labels, splits and recorded runs; a missing file (FileNotFoundError) or a
    recorded query the queries file does not know (ValueError) is refused."""
    for path in [*records, queries]:
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file")
    truth, split_of = read_queries(queries)
    runs = read_records(records)
    unknown = sorted(set(runs) - set(truth))
    if unknown:
        shown = ", ".join(unknown[:5]) + (" ..." if len(unknown) > 5 else "")
        raise ValueError(f"{len(unknown)} recorded queries are not in {queries}: {shown}")
    return truth, split_of, runs


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

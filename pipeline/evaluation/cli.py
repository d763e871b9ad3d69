"""`dacg bench ...`: the evaluation protocol from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.terminal import command_group, console, errors

app = command_group("Benchmarks: record full trajectories, replay stopping policies.")
SPLITS = ("train", "validation", "test")



@app.command()
def record(
    benchmark: Annotated[str, typer.Argument(
        help="'simulated' (the seed-0 paper-scale benchmark, built in seconds) or a folder "
             "written by `dacg corpus simulate`.")],
    out: Annotated[Path, typer.Option(help="Trajectory file (JSONL); resumed if present.")]
    = Path("records/simulated.jsonl"),
    split: Annotated[str, typer.Option(help="train, validation, test or all.")] = "all",
    budget: Annotated[int, typer.Option(min=1, max=100)] = 20,
    limit: Annotated[int | None, typer.Option(min=1, help="At most this many queries.")]
    = None,
) -> None:
    """Run every query for the full budget with no stopping and record each step."""
    from rich.progress import Progress

    from pipeline.evaluation.record import record as record_queries
    from pipeline.evaluation.record import recorded_queries
    from pipeline.extraction.extractor import default_extractor
    from pipeline.graph.embedded_store import EmbeddedStore
    from pipeline.retrieval.open import simulated_benchmark
    from pipeline.simulation.benchmark import load_benchmark

    if split not in (*SPLITS, "all"):
        errors.print(f"error: unknown split {split!r} (use train, validation, test or all)",
                     markup=False, highlight=False)
        raise typer.Exit(2)
    if benchmark == "simulated":
        queries, source = simulated_benchmark()
    elif (Path(benchmark) / "manifest.json").is_file():
        queries, source = load_benchmark(Path(benchmark))
    else:
        errors.print(f"error: {benchmark!r} is neither 'simulated' nor a folder written by "
                     "`dacg corpus simulate`", markup=False, highlight=False)
        raise typer.Exit(2)
    chosen = [q for q in queries if split == "all" or q.split == split][:limit]
    pending = len(chosen) - len(recorded_queries(out) & {q.id for q in chosen})
    with Progress(console=errors, transient=True) as progress:
        task = progress.add_task("recording", total=pending)
        count = record_queries(chosen, out, EmbeddedStore(), source, default_extractor(),
                               budget=budget, on_query=lambda _: progress.advance(task))
    console.print(f"recorded {count} queries ({len(chosen) - count} were already in {out})",
                  highlight=False)

"""`dacg corpus ...`: the simulated benchmark from the command line (the group is named for
the literature sources it serves; it lives here so retrieval never imports the simulator)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.terminal import command_group, console, errors

app = command_group("Literature sources: PubMed, local corpora, MedEvidence, simulator.")



@app.command()
def simulate(
    out: Annotated[Path, typer.Option(help="Directory for the benchmark files.")] = Path(
        "data/simulated"),
    seed: Annotated[int, typer.Option(help="Seed; same seed, same files.")] = 0,
    world: Annotated[str, typer.Option(
        help="'original' (the world below, set by the options) or 'paper' (calibrated on "
             "the paper's baseline rows, data/worlds/paper.json; ignores the options).")]
    = "original",
    bias: Annotated[float, typer.Option(
        "--bias", "--b", help="Publication bias b: null-effect studies report a "
        "favourable finding with probability 1/2 + b.")] = 0.1,
    bias_sd: Annotated[float, typer.Option(help="Per-query spread of b (N(b, sd)).")] = 0.0,
    rank_gradient: Annotated[float, typer.Option(
        help="How much more biased later-ranked studies are (c in 1 + c(2u - 1)).")] = 1.5,
    median_reports: Annotated[float, typer.Option(
        help="Median number of studies per query (log-normal).")] = 11.0,
    max_reports: Annotated[int, typer.Option(help="Most studies per query.")] = 40,
    train: Annotated[int, typer.Option(help="Training queries.")] = 656,
    validation: Annotated[int, typer.Option(help="Validation queries.")] = 140,
    test: Annotated[int, typer.Option(help="Test queries (70/173 Beneficial, as many "
                                           "NoEffect, the rest Harmful).")] = 173,
) -> None:
    """Write the simulated benchmark: queries (splits, labels), abstracts, answer key."""
    from pipeline.simulation.benchmark import write_benchmark
    from pipeline.simulation.calibrated import load_fitted
    from pipeline.simulation.literature import SimConfig, SimulationError

    try:
        if world not in ("original", "paper"):
            raise SimulationError(f"unknown world {world!r} (use original or paper)")
        config = SimConfig(bias=bias, bias_sd=bias_sd, rank_gradient=rank_gradient,
                           median_reports=median_reports, max_reports=max_reports)
        calibration = load_fitted() if world == "paper" else None
        manifest = write_benchmark(out, seed, config, (train, validation, test), calibration)
    except (SimulationError, OSError) as exc:
        errors.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    labels = manifest["labels"]
    for split, counts in labels.items():
        shown = ", ".join(f"{n} {label}" for label, n in counts.items())
        console.print(f"{split}: {sum(counts.values())} queries ({shown})", highlight=False)
    console.print(f"{manifest['abstracts']} abstracts written to {out}", highlight=False)
    console.print(f"checksum {manifest['checksum']}", highlight=False)

"""`dacg simulate`: the simulated literature's benchmark (`corpus`), the paper's section 2
drift simulations (`drift`), and the calibrated world's fit and its table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from pipeline.terminal import command_group, console, errors

if TYPE_CHECKING:  # numpy, scipy and matplotlib load only when a simulation runs
    from pipeline.simulation.drift import Curve
    from pipeline.simulation.drift_report import Comparison

app = command_group("The simulated literature and the simulations behind the paper's "
                    "claims.")



def drift_table(curves: list[Curve]) -> Table:
    """One row per depth t, one column per (scenario, aggregator): D(t) % and its 95% CI."""
    table = Table(title="Drift risk D(t), % [95% Wilson interval]")
    table.add_column("t", justify="right")
    for c in curves:
        table.add_column(f"{c.scenario.label}\n{c.scenario.aggregator}", justify="right")
    for i in range(len(curves[0].drift)):
        table.add_row(str(i + 1), *(f"{100 * c.drift[i]:.1f} [{100 * c.low[i]:.1f}, "
                                    f"{100 * c.high[i]:.1f}]" for c in curves))
    return table


def comparison_table(rows: list[Comparison]) -> Table:
    table = Table(title="Paper vs this run, D(t) in % (exact: binomial, where it applies)")
    table.add_column("scenario")
    table.add_column("aggregator")
    for name in ("paper t=1", "ours t=1", "exact t=1", "paper t=20", "ours t=20", "exact t=20"):
        table.add_column(name, justify="right")
    for r in rows:
        table.add_row(r.scenario, r.aggregator, r.paper_1, f"{r.ours_1:.1f}", percent(r.exact_1),
                      r.paper_20, f"{r.ours_20:.1f}", percent(r.exact_20))
    return table


def percent(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


@app.command()
def corpus(
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
    from pipeline.simulation.vocabulary import SimulationError
    from pipeline.simulation.world import SimConfig

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


@app.command()
def drift(
    trials: Annotated[int, typer.Option(help="Monte Carlo trials per curve.")] = 8000,
    depth: Annotated[int, typer.Option("--T", help="Retrieval depth: reports per trial.")] = 20,
    b: Annotated[float, typer.Option("--b", help="Base publication bias, in (0, 0.5).")] = 0.1,
    seed: Annotated[int, typer.Option(help="Seed; same seed, same table.")] = 0,
    out: Annotated[Path, typer.Option(help="Directory for drift.csv and drift.png.")] = Path(
        "drift-out"),
) -> None:
    """Evidence drift under publication bias: vote counting vs noisy-OR, and departures."""
    from pipeline.simulation.drift import check_bias, paper_scenarios, simulate
    from pipeline.simulation.drift_report import paper_comparison, plot, write_csv

    try:
        check_bias(b)
        curves = simulate(paper_scenarios(b), trials, depth, seed)
    except ValueError as exc:
        errors.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    out.mkdir(parents=True, exist_ok=True)
    write_csv(curves, out / "drift.csv")
    plot(curves, b, out / "drift.png")
    console.print(drift_table(curves))
    rows = paper_comparison(curves)
    if rows:
        console.print(comparison_table(rows))
    console.print(f"wrote {out / 'drift.csv'} and {out / 'drift.png'}", highlight=False)


@app.command()
def fit(
    records: Annotated[Path, typer.Option(
        help="A recording of the original world, to measure what the extractor reads.")]
    = Path("records/simulated.jsonl"),
    benchmark: Annotated[Path, typer.Option(
        help="The original world's folder (`dacg simulate corpus`), for the answer key.")]
    = Path("data/simulated"),
    out: Annotated[Path, typer.Option(help="Where to write the fitted world.")]
    = Path("data/worlds/paper.json"),
    seed: Annotated[int, typer.Option(help="Seed of the world and of the optimiser.")] = 0,
    maxiter: Annotated[int | None, typer.Option(
        min=1, help="Differential-evolution generations (default: the fit's, 50).")] = None,
    popsize: Annotated[int, typer.Option(min=2, help="Population per parameter.")] = 5,
) -> None:
    """Fit the calibrated world to the paper's baseline numbers on train + validation."""
    from pipeline.simulation.fitting_io import fit_world

    try:
        written = fit_world(records, benchmark, out, seed, maxiter, popsize,
                            echo=lambda text: console.print(text, highlight=False,
                                                            markup=False))
    except (ValueError, OSError) as exc:
        errors.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    console.print(f"wrote {written}", highlight=False)


@app.command()
def calibration(
    records: Annotated[Path, typer.Option(help="A recording of the calibrated world.")]
    = Path("records/paper.jsonl"),
    benchmark: Annotated[Path, typer.Option(help="The calibrated world's folder.")]
    = Path("data/simulated-paper"),
    fitted: Annotated[Path | None, typer.Option(
        help="The fitted world (default: the shipped one, data/worlds/paper.json).")] = None,
    out: Annotated[Path, typer.Option(help="Folder for calibration.md.")]
    = Path("reports/paper"),
) -> None:
    """The calibration table (target / fitted / residual) on the fit splits, recorded."""
    from pipeline.resources import shipped
    from pipeline.simulation.calibrated import FITTED_FILE
    from pipeline.simulation.calibration_report import write_calibration

    try:
        written = write_calibration(records, benchmark, fitted or shipped(FITTED_FILE), out)
    except (ValueError, OSError, KeyError) as exc:
        errors.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    console.print(written.read_text(encoding="utf-8"), markup=False, soft_wrap=True)
    console.print(f"wrote {written}", highlight=False)


if __name__ == "__main__":
    app()

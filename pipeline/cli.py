"""The `dacg` command line. Expected failures print one line and exit non-zero."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from typer.exceptions import TyperException

from pipeline.graph.factory import StoreKind, open_store
from pipeline.graph.store import BATCH_SIZE, DEFAULT_NAMESPACE, GraphStore, StoreUnavailable
from pipeline.model import Entity, InvalidEvidence, Polarity, Query, label_index
from pipeline.retrieval.cli import app as corpus_app
from pipeline.settings import Settings
from pipeline.simulation.cli import app as simulate_app

app = typer.Typer(help="DACG: drift-aware causal graph search over biomedical literature.",
                  add_completion=False, pretty_exceptions_enable=False)
app.add_typer(simulate_app, name="simulate")
app.add_typer(corpus_app, name="corpus")
console = Console()
errors = Console(stderr=True)


@app.callback(invoke_without_command=True)
def show_help_without_command(context: typer.Context) -> None:
    if context.invoked_subcommand is None:
        console.print(context.get_help())


class Direction(StrEnum):
    INCREASE = "increase"
    DECREASE = "decrease"


StoreOption = Annotated[StoreKind | None, typer.Option(
    "--store", help="Graph backend; default neo4j when NEO4J_URI is set, else embedded.")]
NamespaceOption = Annotated[str, typer.Option(help="Graph namespace to read or write.")]
DbOption = Annotated[Path | None, typer.Option(
    "--db", help="Embedded store file (default $DACG_DB or .dacg/graph.sqlite).")]


def fail(message: str, code: int = 1) -> typer.Exit:
    errors.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(code)


@contextmanager
def graph(kind: StoreKind | None, db: Path | None) -> Iterator[GraphStore]:
    """Open the chosen store, turning the expected failures into one-line errors."""
    try:
        store = open_store(Settings.from_env(), kind, db)
    except StoreUnavailable as error:
        raise fail(str(error)) from None
    try:
        yield store
    except (InvalidEvidence, StoreUnavailable) as error:
        raise fail(str(error)) from None
    finally:
        store.close()


@app.command()
def ingest(
    source: Annotated[Path, typer.Argument(help="JSONL file of evidence rows: head, tail, "
                                           "polarity, confidence, pmid [, sentence, "
                                           "extractor, year, step].")],
    store: StoreOption = None,
    namespace: NamespaceOption = DEFAULT_NAMESPACE,
    db: DbOption = None,
    batch_size: Annotated[int, typer.Option(min=1, max=100_000)] = BATCH_SIZE,
) -> None:
    """Validate a whole evidence file, then write it into the graph in batches."""
    from rich.progress import Progress

    from pipeline.graph.evidence_file import read_evidence, write_in_batches

    try:
        evidence = read_evidence(source)
    except InvalidEvidence as error:
        raise fail(str(error)) from None
    with graph(store, db) as target, Progress(console=errors, transient=True) as progress:
        task = progress.add_task("writing evidence", total=len(evidence))
        summary = write_in_batches(target, namespace, evidence, batch_size,
                                   on_batch=lambda n: progress.advance(task, n))
        stats = target.stats(namespace)
    console.print(f"ingested {summary.rows} rows into namespace {namespace!r}: "
                  f"{summary.new_edges} new edges, {summary.new_evidence} new (edge, PMID) "
                  f"evidence; the namespace now has {stats.nodes} entities, {stats.edges} "
                  f"edges, {stats.pmids} PMIDs", highlight=False)


@app.command()
def query(
    intervention: Annotated[str, typer.Argument(help="Intervention / cause (E1).")],
    outcome: Annotated[str, typer.Argument(help="Outcome / effect (E2).")],
    direction: Annotated[Direction | None, typer.Option(
        help="Desired direction of the outcome: labels become Beneficial/NoEffect/Harmful.")]
    = None,
    store: StoreOption = None,
    namespace: NamespaceOption = DEFAULT_NAMESPACE,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Answer E1 -> E2 from the paths already in the graph."""
    from pipeline.answer import answer_from_graph

    try:
        question = Query(Entity.from_name(intervention, "intervention"),
                         Entity.from_name(outcome, "outcome"),
                         direction=None if direction is None else (
                             Polarity.INCREASES if direction is Direction.INCREASE
                             else Polarity.DECREASES))
    except InvalidEvidence as error:
        raise fail(str(error), code=2) from None
    with graph(store, db) as source:
        answer = answer_from_graph(source, namespace, question)
    if as_json:
        console.print_json(json.dumps({
            "label": answer.posterior.label.value,
            "posterior": answer.posterior.as_dict(),
            "energy": answer.energy.total,
            "paths": [{"nodes": list(p.nodes), "polarities": list(p.polarities),
                       "beliefs": list(p.beliefs), "strength": p.strength}
                      for p in answer.paths],
            "edges": [{"head": e.head, "tail": e.tail, "polarity": e.polarity,
                       "belief": e.belief, "pmids": list(e.pmids)}
                      for e in answer.explanation],
        }))
        return
    posterior = ", ".join(f"{k} {v:.3f}" for k, v in answer.posterior.as_dict().items())
    console.print(f"[bold]{answer.posterior.label.value}[/bold]  ({posterior}; "
                  f"energy {answer.energy.total:.3f})")
    if not answer.paths:
        console.print("no direct or two-hop path from "
                      f"{question.intervention.id!r} to {question.outcome.id!r} in namespace "
                      f"{namespace!r}: NoEvidence (not the same as NoEffect)", highlight=False)
        return
    labels = answer.posterior.labels
    table = Table("path", "edge polarities", "beliefs", "strength", "votes for",
                  title="top paths (strongest first)")
    for path in answer.paths:
        table.add_row(" -> ".join(path.nodes), " ".join(map(signed, path.polarities)),
                      " ".join(f"{w:.3f}" for w in path.beliefs), f"{path.strength:.4f}",
                      labels[label_index(path.polarity, question.direction)].value)
    console.print(table)
    console.print("edges on these paths (noisy-OR belief over distinct PMIDs):")
    for edge in answer.explanation:
        console.print(f"  {edge.head} -[{signed(edge.polarity)}, w={edge.belief:.3f}]-> "
                      f"{edge.tail}: PMIDs {', '.join(edge.pmids)}", highlight=False)


def signed(polarity: int) -> str:
    return f"{polarity:+d}" if polarity else "0"


def main() -> None:
    """Entry point: usage mistakes (a typo in a flag, a bad choice) become one line too."""
    try:
        code = app(standalone_mode=False)
    except TyperException as error:
        command = getattr(getattr(error, "ctx", None), "command_path", "dacg")
        errors.print(f"error: {error.format_message()} (see '{command} --help')", markup=False,
                     highlight=False, soft_wrap=True)
        sys.exit(getattr(error, "exit_code", 2))
    except typer.Abort:
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)

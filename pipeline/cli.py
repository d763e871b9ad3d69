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
from rich.table import Table
from rich.text import Text
from typer.exceptions import TyperException

from pipeline.answer import Answer
from pipeline.evaluation.cli import app as bench_app
from pipeline.extraction import cli as extraction_cli
from pipeline.graph.factory import StoreKind, open_store, store_faults, store_location
from pipeline.graph.store import (
    BATCH_SIZE,
    DEFAULT_NAMESPACE,
    EdgeKey,
    GraphStore,
    StoreUnavailable,
    check_namespace,
)
from pipeline.inference.evidence_body import EvidenceBody, FirmnessRule
from pipeline.model import Entity, EvidenceItem, InvalidEvidence, Polarity, Query, label_index
from pipeline.settings import Settings
from pipeline.simulation.cli import app as simulate_app
from pipeline.stopping.cli import app as prm_app
from pipeline.stopping.policies import (
    DACGPolicy,
    StopDecision,
    StoppingPolicy,
    Thresholds,
    dacg_policy,
    policy_from_name,
)
from pipeline.stopping.thresholds import load_thresholds
from pipeline.terminal import (
    FaultBoundary,
    Stopwatch,
    command_group,
    console,
    counted,
    errors,
    fail,
    one_line,
)

app = typer.Typer(help="DACG: drift-aware causal graph search over biomedical literature.",
                  add_completion=False, pretty_exceptions_enable=False, cls=FaultBoundary)
app.add_typer(simulate_app, name="simulate")
app.add_typer(prm_app, name="prm")
app.add_typer(bench_app, name="bench")
app.add_typer(extraction_cli.app, name="extract")
audit_app = command_group("Audits of the graph's inputs.")
audit_app.command("grounding")(extraction_cli.grounding)
app.add_typer(audit_app, name="audit")
eval_app = command_group("Evaluate components on real data.")
eval_app.command("extractor")(extraction_cli.evaluate)
app.add_typer(eval_app, name="eval")


@app.callback(invoke_without_command=True)
def show_help_without_command(context: typer.Context) -> None:
    if context.invoked_subcommand is None:
        console.print(context.get_help())


class ExtractorKind(StrEnum):
    RULES = "rules"
    LLM = "llm"


class Direction(StrEnum):
    INCREASE = "increase"
    DECREASE = "decrease"


StoreOption = Annotated[StoreKind | None, typer.Option(
    "--store", help="Graph backend; default neo4j when NEO4J_URI is set, else embedded.")]
def valid_namespace(namespace: str) -> str:
    """The same namespace rule for every command that takes one (a usage error, exit 2)."""
    try:
        return check_namespace(namespace)
    except InvalidEvidence as error:
        raise typer.BadParameter(str(error)) from None


NamespaceOption = Annotated[str, typer.Option(help="Graph namespace to read or write.",
                                              callback=valid_namespace)]
PrmOption = Annotated[str | None, typer.Option(
    help="PRM weights folder (default: the shipped one), or 'none' for no PRM.")]
ThresholdsOption = Annotated[Path | None, typer.Option(
    help="Thresholds file (default: the ones `dacg bench tune` froze, shipped with DACG).")]
DbOption = Annotated[Path | None, typer.Option(
    "--db", help="Embedded store file (default $DACG_DB or .dacg/graph.sqlite).")]


@contextmanager
def graph(kind: StoreKind | None, db: Path | None) -> Iterator[GraphStore]:
    """Open the chosen store; a fault of the store's own (locked, corrupt, full, gone)
    becomes StoreUnavailable naming the file or the (redacted) URI."""
    settings = Settings.from_env()
    try:
        store = open_store(settings, kind, db)
        try:
            yield store
        finally:
            store.close()
    except store_faults() as error:
        where = store_location(settings, kind, db)
        raise StoreUnavailable(f"{where}: {one_line(error)}") from None


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
    from pipeline.graph.evidence_file import read_evidence, write_in_batches

    try:
        evidence = read_evidence(source)
    except InvalidEvidence as error:
        raise fail(str(error)) from None
    with graph(store, db) as target, counted("writing evidence", len(evidence)) as advance:
        summary = write_in_batches(target, namespace, evidence, batch_size, on_batch=advance)
        stats = target.stats(namespace)
    console.print(f"ingested {summary.rows} rows into namespace {namespace!r}: "
                  f"{summary.new_edges} new edges, {summary.new_evidence} new (edge, PMID) "
                  f"evidence; the namespace now has {stats.nodes} entities, {stats.edges} "
                  f"edges, {stats.pmids} PMIDs", highlight=False)


@app.command()
def query(
    intervention: Annotated[str, typer.Argument(help="Intervention / cause (E1).")],
    outcome: Annotated[str, typer.Argument(help="Outcome / effect (E2).")],
    comparator: Annotated[str | None, typer.Option(help="Comparator arm, e.g. placebo.")]
    = None,
    direction: Annotated[Direction | None, typer.Option(
        help="Desired direction of the outcome: labels become Beneficial/NoEffect/Harmful.")]
    = None,
    source: Annotated[str, typer.Option(
        help="pubmed, simulated, kg (answer from the ingested graph, no retrieval), or a "
             "corpus: a JSONL file or a folder of PubMed XML.")] = "pubmed",
    policy: Annotated[str, typer.Option(help="Stopping policy: dacg, kl, prm or k=N.")]
    = "dacg",
    extractor: Annotated[ExtractorKind, typer.Option(
        help="rules (offline, the default) or llm: an OpenAI-compatible chat endpoint named "
             "by DACG_LLM_URL and DACG_LLM_MODEL (key in DACG_LLM_API_KEY).")]
    = ExtractorKind.RULES,
    budget: Annotated[int, typer.Option(min=1, max=100, help="Most retrieval steps.")] = 20,
    store: StoreOption = None,
    namespace: NamespaceOption = DEFAULT_NAMESPACE,
    db: DbOption = None,
    prm: PrmOption = None,
    thresholds: ThresholdsOption = None,
    record: Annotated[Path | None, typer.Option(
        help="Write every step as JSON lines (SPEC §6) to this file.")] = None,
    offline: Annotated[bool, typer.Option(help="PubMed: read the cache only.")] = False,
    explain: Annotated[bool, typer.Option(help="Show the sentence behind every PMID.")]
    = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Answer E1 -> E2: retrieve step by step, stop when the belief has settled, and show
    the answer with the paths, edges, PMIDs (and sentences) behind it."""
    from pipeline.answer import answer_from_graph, direct_body, explain_edges

    in_force = thresholds_in_force(thresholds)
    try:
        question = Query(
            Entity.from_name(intervention, "intervention"), Entity.from_name(outcome, "outcome"),
            Entity.from_name(comparator, "comparator") if comparator is not None else None,
            None if direction is None else (
                Polarity.INCREASES if direction is Direction.INCREASE else Polarity.DECREASES))
        stopping = policy_from_name(policy, in_force)
    except (InvalidEvidence, ValueError) as error:
        raise fail(str(error), code=2) from None
    with graph(store, db) as target:
        if source == "kg":
            answer = answer_from_graph(target, namespace, question)
            stop, run_id, where = None, namespace, namespace
        else:
            answer, stop, run_id = run_agent(target, question, source, stopping, budget, prm,
                                             record, offline, dacg_policy(in_force), extractor)
            where = run_id
        evidence = explain_edges(target, where, answer.explanation) if explain else {}
        body = direct_body(target, where, answer)
    show_answer(answer, stop, run_id, evidence, as_json, body, firmness_of(answer, body))


def run_agent(store: GraphStore, question: Query, source: str, stopping: StoppingPolicy,
              budget: int, prm: str | None, record: Path | None, offline: bool,
              rules: DACGPolicy, kind: ExtractorKind) -> tuple[Answer, StopDecision, str]:
    """Build the source, extractor and reward model and run the controller: the answer,
    where the run stopped, and the run id."""
    from pipeline.controller import Controller
    from pipeline.extraction.extractor import Extractor, default_extractor
    from pipeline.extraction.llm import LLMError, LLMExtractor
    from pipeline.recordings import write_steps
    from pipeline.retrieval.source import SourceError, with_source_aliases
    from pipeline.sources import open_source
    from pipeline.stopping.prm import load_reward_model

    try:
        literature = open_source(source, offline=offline)
        reward_model = load_reward_model(prm)
        reader: Extractor = (LLMExtractor.from_env() if kind is ExtractorKind.LLM
                             else default_extractor())
    except (SourceError, ValueError, OSError, LLMError) as error:
        raise fail(str(error)) from None
    question = with_source_aliases(literature, question)
    if record:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text("", encoding="utf-8")
    controller = Controller(store, literature, reader, stopping, reward_model,
                            budget, on_step=lambda step: write_steps(record, [step])
                            if record else None, rules=rules)
    try:
        run = controller.run(question, query_id=f"{question.intervention.id} -> "
                                                f"{question.outcome.id}")
    except (SourceError, LLMError) as error:
        raise fail(str(error)) from None
    from pipeline.answer import Answer, explain

    explanation, terms = explain(store, run.run_id, run.paths, run.posterior)
    return (Answer(run.query, run.posterior, run.paths, explanation, terms), run.stop,
            run.run_id)


def thresholds_in_force(path: Path | None) -> Thresholds:
    """The frozen thresholds (or the file given): the ones the report tables use."""
    try:
        return load_thresholds(path)
    except ValueError as error:
        raise fail(str(error)) from None


def answer_polarity(answer: Answer) -> int:
    """The composed polarity whose label the posterior chose."""
    labels = answer.posterior.labels
    return next(p for p in (1, 0, -1)
                if labels[label_index(p, answer.query.direction)] is answer.posterior.label)


def firmness_of(answer: Answer, body: EvidenceBody, rule: FirmnessRule | None = None
                ) -> str | None:
    """definite / uncertain effect / insufficient data under `rule` (default: the frozen
    one, tuned on MedEvidence), or None while there is no path."""
    from pipeline.evaluation.medevidence import load_firmness

    if not answer.paths:
        return None
    try:
        return str((rule or load_firmness()).judge(body, answer_polarity(answer)))
    except (ValueError, OSError) as error:
        raise fail(str(error)) from None


def show_answer(answer: Answer, stop: StopDecision | None, run_id: str,
                evidence: dict[EdgeKey, list[EvidenceItem]], as_json: bool,
                body: EvidenceBody, firmness: str | None) -> None:
    if as_json:
        console.print_json(json.dumps({
            "label": answer.posterior.label.value,
            "firmness": firmness,
            "studies": body.studies,
            "posterior": answer.posterior.as_dict(),
            "stop": None if stop is None else {"step": stop.step, "reason": stop.reason},
            "run": run_id,
            "energy": answer.energy.total,
            "paths": [{"nodes": list(p.nodes), "polarities": list(p.polarities),
                       "beliefs": list(p.beliefs), "strength": p.strength}
                      for p in answer.paths],
            "edges": [{"head": e.head, "tail": e.tail, "polarity": e.polarity,
                       "belief": e.belief, "pmids": list(e.pmids),
                       "evidence": [{"pmid": i.pmid, "confidence": i.confidence,
                                     "sentence": i.sentence, "year": i.year}
                                    for i in evidence.get((e.head, e.tail, e.polarity), [])]}
                      for e in answer.explanation],
        }))
        return
    posterior = ", ".join(f"{k} {v:.3f}" for k, v in answer.posterior.as_dict().items())
    console.print(Text.assemble((answer.posterior.label.value, "bold"),
                                f"  ({posterior}; energy {answer.energy.total:.3f})"))
    if firmness is not None:
        share = body.share(answer_polarity(answer))
        console.print(f"body of evidence: {firmness} ({body.studies} studies with a direct "
                      f"finding, {share:.0%} of their confidence for this answer)",
                      highlight=False, markup=False)
    if stop is not None:
        why = STOP_REASONS.get(stop.reason, stop.reason)
        console.print(f"stopped after step {stop.step}: {why}; inspect the run's graph with "
                      f"`dacg browse {run_id}`", highlight=False, markup=False)
    if not answer.paths:
        console.print(f"no direct or two-hop path from {answer.query.intervention.id!r} to "
                      f"{answer.query.outcome.id!r}: NoEvidence (not the same as NoEffect)",
                      highlight=False)
        return
    labels = answer.posterior.labels
    table = Table("path", "edge polarities", "beliefs", "strength", "votes for",
                  title="top paths (strongest first)")
    for path in answer.paths:
        table.add_row(" -> ".join(path.nodes), " ".join(map(signed, path.polarities)),
                      " ".join(f"{w:.3f}" for w in path.beliefs), f"{path.strength:.4f}",
                      labels[label_index(path.polarity, answer.query.direction)].value)
    console.print(table)
    console.print("edges on these paths (noisy-OR belief over distinct PMIDs):")
    for edge in answer.explanation:
        console.print(f"  {edge.head} -[{signed(edge.polarity)}, w={edge.belief:.3f}]-> "
                      f"{edge.tail}: PMIDs {', '.join(edge.pmids)}", highlight=False)
        for item in evidence.get((edge.head, edge.tail, edge.polarity), []):
            console.print(f"      PMID {item.pmid} (s={item.confidence:.2f}): {item.sentence}",
                          highlight=False, markup=False)


@app.command()
def demo() -> None:
    """The main result in seconds: the calibrated world's test split (70 Beneficial, 70
    NoEffect queries) read on an in-memory store, k = 20 against DACG on the same steps
    (NoEffect accuracy, drift, steps, 95% bootstrap CIs), then one worked question."""

    from pipeline.demo import (
        WORLD_THRESHOLDS,
        Estimate,
        evidence_at,
        record_test_split,
        replay_demo,
        summarise_policy,
        worked_question,
    )
    from pipeline.resources import shipped

    clock = Stopwatch()
    try:
        thresholds = load_thresholds(shipped(WORLD_THRESHOLDS))
        with counted("reading the test split", 140) as advance:
            runs, truth, questions = record_test_split(advance)
    except (ValueError, OSError, KeyError) as error:
        raise fail(str(error)) from None
    outcomes = replay_demo(runs, truth, thresholds)
    table = Table("policy", "NoEffect accuracy %", "drift %", "mean steps", "accuracy %",
                  title=f"Calibrated world, test split: {len(runs)} queries "
                        "(70 Beneficial, 70 NoEffect), 95% bootstrap CIs")

    def cell(e: Estimate, scale: float = 100.0, digits: int = 1) -> str:
        return (f"{scale * e.value:.{digits}f} ({scale * e.low:.{digits}f}–"
                f"{scale * e.high:.{digits}f})")

    for name, outs in outcomes.items():
        row = summarise_policy(name, outs)
        table.add_row(name, cell(row.noeffect), cell(row.drift), cell(row.steps, 1, 2),
                      cell(row.accuracy))
    console.print(table)
    query_id = worked_question(outcomes)
    if query_id is not None:
        stops = {name: next(o for o in outs if o.query_id == query_id)
                 for name, outs in outcomes.items()}
        dacg, full = stops["DACG"], stops["k=20"]
        console.print(f"\nWorked question {query_id}: {questions[query_id]} (true answer "
                      f"NoEffect). DACG stops at step {dacg.stop} ({dacg.reason}) answering "
                      f"{dacg.label}; k = 20 reads {full.stop} steps and answers "
                      f"{full.label}.", highlight=False, markup=False)
        steps = runs[query_id]
        paths = Table("path", "edge polarities", "beliefs", "strength",
                      title=f"top paths at DACG's stop (step {dacg.stop})")
        for path in steps[dacg.stop - 1].top_paths:
            paths.add_row(" -> ".join(path["nodes"]), " ".join(map(signed, path["polarities"])),
                          " ".join(f"{w:.3f}" for w in path["beliefs"]),
                          f"{path['strength']:.4f}")
        console.print(paths)
        for head, tail, polarity, pmid, sentence in evidence_at(steps, dacg.stop):
            console.print(f"  {head} -[{signed(polarity)}]-> {tail}  PMID {pmid}: {sentence}",
                          highlight=False, markup=False)
    # on stderr: stdout is the same on every run (tests compare it across installs)
    errors.print(f"done in {clock.seconds:.1f} s", highlight=False)


@app.command()
def browse(
    run_id: Annotated[str, typer.Argument(help="Run id (its graph namespace).")],
    intervention: Annotated[str | None, typer.Option(
        help="E1 name, for the path and evidence queries.")] = None,
    outcome: Annotated[str | None, typer.Option(help="E2 name.")] = None,
    browser_url: Annotated[str | None, typer.Option(
        envvar="NEO4J_BROWSER_URL",
        help="Neo4j Browser URL (default: port 7474 on NEO4J_URI's host).")] = None,
    serve: Annotated[bool, typer.Option(
        help="Serve the guide and style on localhost until Ctrl-C.")] = False,
    port: Annotated[int, typer.Option(min=0, max=65535)] = 8474,
) -> None:
    """Print the Neo4j Browser URL and the :param lines to inspect a run's graph."""
    from pipeline.browse import default_browser_url, run_browse

    settings = Settings.from_env()
    try:
        run_browse(run_id, intervention, outcome,
                   browser_url or default_browser_url(settings.neo4j_uri),
                   settings.neo4j_uri, settings.neo4j_user, serve, port,
                   echo=lambda text: console.print(text, markup=False, highlight=False,
                                                   soft_wrap=True))
    except InvalidEvidence as error:
        raise fail(str(error), code=2) from None
    except OSError as error:
        raise fail(f"cannot serve the guide on port {port}: {error}") from None


runs_app = command_group("The run graphs that queries leave behind (one namespace per run).")
app.add_typer(runs_app, name="runs")


@runs_app.command("list")
def list_runs(store: StoreOption = None, db: DbOption = None) -> None:
    """Every run's namespace, when it started and its size."""
    from pipeline.runs import is_run, run_created

    table = Table(title="run graphs")
    table.add_column("run", overflow="fold")
    for column in ("started (UTC)", "entities", "edges"):
        table.add_column(column)
    with graph(store, db) as target:
        for namespace in filter(is_run, target.namespaces()):
            created, stats = run_created(namespace), target.stats(namespace)
            table.add_row(namespace, f"{created:%Y-%m-%d %H:%M:%S}" if created else "unknown",
                          str(stats.nodes), str(stats.edges))
    console.print(table if table.row_count else "no run graphs")


@runs_app.command("drop")
def drop_runs(
    runs: Annotated[list[str] | None, typer.Argument(help="Run ids to drop.")] = None,
    older_than: Annotated[str | None, typer.Option(
        help="Drop every run started longer ago than this: 30m, 12h, 7d, 2w.")] = None,
    store: StoreOption = None,
    db: DbOption = None,
) -> None:
    """Drop run graphs by id, or all those older than an age (never the knowledge graph)."""
    from datetime import UTC, datetime

    from pipeline.runs import is_run, parse_age, runs_older_than

    if bool(runs) == (older_than is not None):
        raise fail("give run ids or --older-than, not both and not neither", 2)
    try:
        age = parse_age(older_than) if older_than is not None else None
    except ValueError as error:
        raise fail(str(error), 2) from None
    for run_id in runs or []:
        if not is_run(run_id):
            raise fail(f"{run_id!r} is not a run graph (run ids start with 'run-')", 2)
    with graph(store, db) as target:
        present = target.namespaces()
        if age is not None:
            chosen = runs_older_than(present, age, datetime.now(UTC))
        else:
            chosen = list(dict.fromkeys(runs or []))
            missing = [r for r in chosen if r not in present]
            if missing:
                raise fail(f"no run graph named {missing[0]!r} (see `dacg runs list`)")
        for namespace in chosen:
            target.drop(namespace)
    console.print(f"dropped {len(chosen)} run graph{'s' if len(chosen) != 1 else ''}",
                  highlight=False)


STOP_REASONS = {
    "kl": "the posterior stopped moving (KL < delta)",
    "prm_decline": "the PRM reward fell below its best by more than alpha",
    "prm_convergence": "the PRM reward plateaued over 4 steps",
    "budget": "the step budget ran out",
    "source_dry": "the source ran dry",
    "fixed_k": "the fixed budget k was reached",
}


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

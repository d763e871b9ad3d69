"""`dacg bench ...`: the evaluation protocol from the command line."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from pipeline.model import SPLITS
from pipeline.resources import MEDEVIDENCE_DEV
from pipeline.stopping.policies import Thresholds
from pipeline.stopping.thresholds import FROZEN_THRESHOLDS
from pipeline.terminal import Stopwatch, command_group, console, counted, errors, fail

app = command_group("Benchmarks: record full trajectories, replay stopping policies, tune "
                    "thresholds on validation, write the paper's tables and figures.")

DEFAULT_THRESHOLDS = Path(FROZEN_THRESHOLDS)  # where `tune` freezes them in a checkout
DEFAULT_QUERIES = Path("data/simulated/queries.jsonl")

RecordsArg = Annotated[list[Path], typer.Argument(
    help="Trajectory JSONL files written by `dacg bench record`.")]
QueriesOpt = Annotated[Path, typer.Option(
    help="queries.jsonl with each query's id, true label and split.")]
PrmOpt = Annotated[str | None, typer.Option(
    help="PRM directory scoring the steps for the PRM rules (default: the shipped one), "
         "or 'none'.")]
ThresholdsOpt = Annotated[Path | None, typer.Option(
    help="Frozen thresholds written by `dacg bench tune` (default: the shipped ones).")]
ReportFolder = Annotated[Path, typer.Option(
    help="Folder for the tables and figures (created if absent).")]
BenchmarkOpt = Annotated[str, typer.Option(
    help="The benchmark the records come from ('simulated', a folder, a MedEvidence file), "
         "whose abstracts and entities the baselines and the grounding split read; or "
         "'none'.")]


def _read(records: list[Path], queries: Path, prm: str | None) -> tuple[
        dict[str, str], dict[str, str], dict[str, list[Any]], Any]:
    """True labels, splits, runs and the PRM (None for 'none'); problems are one line."""
    from pipeline.recordings import read_labelled_records
    from pipeline.stopping.prm import load_reward_model

    try:
        truth, split_of, runs = read_labelled_records(records, queries)
        model = load_reward_model(prm)
    except FileNotFoundError as error:
        raise fail(str(error), 2) from None
    except (ValueError, OSError) as error:
        raise fail(str(error)) from None
    return truth, split_of, runs, model


def _load(records: list[Path], queries: Path, prm: str | None,
          split: str) -> tuple[dict[str, list[Any]], dict[str, str], dict[str, str]]:
    """Scored runs of one split, true labels and splits; every problem is one line."""
    from pipeline.evaluation.harness import scored

    if split not in SPLITS:
        raise fail(f"unknown split {split!r} (use {', '.join(SPLITS)})", 2)
    truth, split_of, runs, model = _read(records, queries, prm)
    chosen = {q: steps for q, steps in runs.items() if split_of[q] == split}
    if not chosen:
        raise fail(f"no recorded query of the {split} split in {', '.join(map(str, records))}")
    return scored(chosen, model), truth, split_of


def _thresholds(path: Path | None) -> Thresholds:
    """The frozen thresholds (a missing file is an error, never the paper's defaults)."""
    from pipeline.stopping.thresholds import load_thresholds

    try:
        return load_thresholds(path)
    except ValueError as error:
        raise fail(str(error)) from None


def _trim_and_fill(spec: str, runs: dict[str, list[Any]]) -> dict[str, str | None]:
    """Trim-and-fill labels for the runs, from the benchmark's abstracts."""
    from pipeline.benchmarks import BenchmarkError, benchmark_abstracts, open_benchmark
    from pipeline.evaluation.harness import abstract_texts, trim_and_fill_labels
    from pipeline.recordings import refuse_unknown

    try:
        queries, source = open_benchmark(spec)
    except BenchmarkError as error:
        raise fail(str(error), 2) from None
    directions = {q.id: int(q.query.direction or 1) for q in queries}
    try:
        refuse_unknown(runs, directions, f"the benchmark {spec!r}")
    except ValueError as error:
        raise fail(str(error)) from None
    return trim_and_fill_labels(runs, abstract_texts(benchmark_abstracts(source)),
                                directions)


def _llm_baselines(spec: str, runs: dict[str, list[Any]]) -> dict[str, dict[str, str | None]]:
    """E1 and E2 through the configured LLM endpoint; none without one."""
    from pipeline.benchmarks import open_benchmark
    from pipeline.evaluation.llm_baselines import LLMJudge, llm_baselines
    from pipeline.extraction.llm import LLMError

    judge = LLMJudge.from_env()
    if judge is None:
        return {}
    queries, source = open_benchmark(spec)
    chosen = {q.id: q.query for q in queries if q.id in runs}
    try:
        return llm_baselines(judge, chosen, source)
    except LLMError as error:
        raise fail(str(error)) from None


@app.command()
def record(
    benchmark: Annotated[str, typer.Argument(
        help="'simulated' (the seed-0 paper-scale benchmark, built in seconds), a folder "
             "written by `dacg simulate corpus`, or a MedEvidence JSONL file.")],
    out: Annotated[Path, typer.Option(help="Trajectory file (JSONL); resumed if present.")]
    = Path("records/simulated.jsonl"),
    split: Annotated[str, typer.Option(
        help="train, validation, test, dev (MedEvidence) or all.")] = "all",
    budget: Annotated[int, typer.Option(min=1, max=100)] = 20,
    limit: Annotated[int | None, typer.Option(min=1, help="At most this many queries.")]
    = None,
    jobs: Annotated[int, typer.Option(
        min=1, help="Worker processes (each with its own embedded store).")] = 1,
) -> None:
    """Run every query for the full budget with no stopping and record each step."""
    from pipeline.benchmarks import BenchmarkError, open_benchmark
    from pipeline.evaluation.record import record as record_queries
    from pipeline.evaluation.record import recorded_queries
    from pipeline.recordings import drop_torn_tail

    try:
        opened = open_benchmark(benchmark, warn=lambda text: errors.print(f"warning: {text}"))
    except BenchmarkError as error:
        raise fail(str(error), 2) from None
    queries = opened[0]
    if split != "all" and split not in {q.split for q in queries}:
        raise fail(f"no query of split {split!r} in {benchmark} (splits: "
                   f"{', '.join(sorted({q.split for q in queries}))})", 2)
    chosen = [q for q in queries if split == "all" or q.split == split][:limit]
    drop_torn_tail(out)  # the half line a crash left: resume after the whole runs
    try:
        pending = len(chosen) - len(recorded_queries(out) & {q.id for q in chosen})
    except ValueError as error:
        raise fail(f"{out}: not a trajectory file ({error})") from None
    clock = Stopwatch()
    with counted("recording", pending) as advance:
        count = record_queries(benchmark, chosen, out, budget, jobs,
                               on_query=lambda _: advance(), opened=opened,
                               opener=open_benchmark)
    console.print(f"recorded {count} queries in {clock.seconds:.1f} s "
                  f"({len(chosen) - count} were already in {out})", highlight=False)


@app.command()
def tune(
    records: RecordsArg,
    queries: QueriesOpt = DEFAULT_QUERIES,
    prm: PrmOpt = None,
    out: Annotated[Path, typer.Option(help="Where to freeze the tuned thresholds.")]
    = DEFAULT_THRESHOLDS,
) -> None:
    """Tune every policy's thresholds on the validation split only, and freeze them."""
    from pipeline.evaluation.harness import EVALUATED
    from pipeline.evaluation.tuning import grid_size
    from pipeline.evaluation.tuning import tune as tune_thresholds
    from pipeline.recordings import sha256_file
    from pipeline.stopping.prm import prm_folder

    runs, truth, _ = _load(records, queries, prm, "validation")
    prm_dir = prm_folder(prm)
    evaluated = {q: s for q, s in runs.items() if truth[q] in EVALUATED}
    with counted("tuning on validation", grid_size()) as advance:
        tuned, results = tune_thresholds(evaluated, truth, EVALUATED, on_point=advance)
    config = {
        "thresholds": asdict(tuned),
        "tuned_on": {"split": "validation", "queries": len(evaluated),
                     "classes": list(EVALUATED),
                     "objective": "macro-F1, ties to fewer mean steps",
                     "records": {str(p): sha256_file(p) for p in records},
                     "queries_file": {str(queries): sha256_file(queries)},
                     "prm": "none" if prm_dir is None else sha256_file(prm_dir / "weights.npz")},
        "validation": results,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    table = Table(title=f"Tuned on the validation split ({len(evaluated)} queries)")
    for column in ("policy", "thresholds", "macro-F1", "mean steps"):
        table.add_column(column)
    for name, row in results.items():
        table.add_row(name, ", ".join(f"{k}={v:g}" for k, v in row["thresholds"].items()),
                      f"{100 * row['macro_f1']:.1f}", f"{row['mean_steps']:.2f}")
    console.print(table)
    console.print(f"frozen into {out}", highlight=False)


@app.command("replay")
def replay_command(
    records: RecordsArg,
    queries: QueriesOpt = DEFAULT_QUERIES,
    split: Annotated[str, typer.Option(help="train, validation or test.")] = "test",
    prm: PrmOpt = None,
    thresholds: ThresholdsOpt = None,
) -> None:
    """Apply every stopping policy offline to the same records and print the main table."""
    from pipeline.evaluation.harness import evaluate
    from pipeline.evaluation.report import main_table

    clock = Stopwatch()
    runs, truth, _ = _load(records, queries, prm, split)
    result = evaluate(runs, truth, _thresholds(thresholds))
    table = main_table(result.metrics, result.coverage)
    shown = Table(title=f"{split} split, {result.metrics['k=20'].n} Beneficial/NoEffect queries",
                  caption=f"replayed {len(result.outcomes)} policies over {len(runs)} queries "
                          f"in {clock.seconds:.2f} s")
    for column in table.header:
        shown.add_column(column, justify="left" if column == "Method" else "right")
    for row in table.rows:
        shown.add_row(*row)
    console.print(shown)


@app.command()
def report(
    records: RecordsArg,
    queries: QueriesOpt = DEFAULT_QUERIES,
    out: ReportFolder = Path("reports/simulated"),
    split: Annotated[str, typer.Option(help="train, validation or test.")] = "test",
    prm: PrmOpt = None,
    thresholds: ThresholdsOpt = None,
    benchmark: BenchmarkOpt = "simulated",
) -> None:
    """Write the paper's tables (Markdown + CSV) and figures (PNG) from the records."""
    from pipeline.evaluation.harness import evaluate, thresholds_settings, write_report
    from pipeline.stopping.prm import SHIPPED_PRM

    runs, truth, _ = _load(records, queries, prm, split)
    frozen = _thresholds(thresholds)
    extra = {} if benchmark.lower() == "none" else {
        "Trim-and-fill": _trim_and_fill(benchmark, runs)}
    if benchmark.lower() != "none":
        extra |= _llm_baselines(benchmark, runs)
    result = evaluate(runs, truth, frozen, extra)
    settings = {"split": split, "queries": result.metrics["k=20"].n,
                "prm": prm or SHIPPED_PRM,
                "thresholds file": thresholds or FROZEN_THRESHOLDS,
                "benchmark (trim-and-fill)": benchmark,
                **thresholds_settings(frozen)}
    written = write_report(result, out, f"Stopping policies on the {split} split", settings)
    console.print((out / "claims.md").read_text(encoding="utf-8"), markup=False,
                  soft_wrap=True)
    console.print(f"wrote {len(written)} files to {out} (report.md gathers them)",
                  highlight=False)


def _grounded(spec: str, mesh: Path | None) -> dict[str, bool]:
    """Whether both of each query's endpoints ground to MeSH (exact, folded or
    normalised; the linker is left out, as in the paper's audit)."""
    from pipeline.benchmarks import BenchmarkError, open_benchmark
    from pipeline.extraction.audit import ground_entities
    from pipeline.extraction.mesh import MeshError, MeshIndex

    try:
        queries, _ = open_benchmark(spec)
        index = MeshIndex.load(mesh, with_linker=False)
    except (BenchmarkError, MeshError, OSError) as error:
        raise fail(str(error), 2) from None
    rows = ground_entities(index, [(q.id, role, entity.name) for q in queries
                                   for role, entity in (("intervention", q.query.intervention),
                                                        ("outcome", q.query.outcome))],
                           use_linker=False)
    found: dict[str, bool] = {}
    for row in rows:
        found[row.question] = found.get(row.question, True) and row.grounding is not None
    return found


@app.command()
def analyses(
    records: RecordsArg,
    prm: PrmOpt = None,
    thresholds: ThresholdsOpt = None,
    queries: QueriesOpt = DEFAULT_QUERIES,
    out: ReportFolder = Path("reports/simulated"),
    benchmark: BenchmarkOpt = "simulated",
    mesh: Annotated[Path | None, typer.Option(
        help="MeSH table; default $DACG_MESH or the shared one.")] = None,
) -> None:
    """Posterior calibration (ECE, reliability diagram), the PRM reward gap and margin,
    the validation + test union, and drift by MeSH grounding: the paper's analyses
    beyond its tables."""
    from pipeline.evaluation.harness import scored, write_analyses

    truth, split_of, runs, model = _read(records, queries, prm)
    by_split = {split: scored({q: s for q, s in runs.items() if split_of[q] == split}, model)
                for split in SPLITS}
    if not all(by_split.values()):
        raise fail("analyses need recorded queries of every split (train, validation, test)")
    grounded = None if benchmark.lower() == "none" else _grounded(benchmark, mesh)
    try:
        written = write_analyses(by_split, truth, _thresholds(thresholds), out,
                                 "none" if model is None else f"PRM {prm or 'shipped'}", grounded)
    except ValueError as error:
        raise fail(str(error)) from None
    console.print(written[0].read_text(encoding="utf-8"), markup=False, soft_wrap=True)
    console.print(f"wrote {', '.join(map(str, written))}", highlight=False)


MedEvidenceOpt = Annotated[Path, typer.Option(
    help="The MedEvidence JSONL the records come from.")]


def _medevidence_runs(records: list[Path], data: Path, prm: str | None,
                      thresholds: Path | None) -> tuple[
        list[Any], dict[str, list[Any]], dict[str, Any]]:
    """(questions, scored runs, each policy's outcomes) for recorded MedEvidence questions;
    every problem is one line."""
    from pipeline.evaluation.harness import scored
    from pipeline.evaluation.medevidence import DEFINITE, read_recorded_questions
    from pipeline.evaluation.replay import policies, replay_all
    from pipeline.retrieval.corpus import CorpusError
    from pipeline.stopping.prm import load_reward_model

    for path in [*records, data]:
        if not path.is_file():
            raise fail(f"{path}: no such file", 2)
    try:
        questions, runs = read_recorded_questions(records, data)
        model = load_reward_model(prm)
    except (CorpusError, ValueError, OSError) as error:
        raise fail(str(error)) from None
    gold = {q.id: q.answer for q in questions}
    runs = scored(runs, model)
    truth = {q: DEFINITE.get(gold[q], "NoEvidence") for q in runs}
    outcomes = replay_all(policies(_thresholds(thresholds)), runs, truth, with_oracle=False)
    return [q for q in questions if q.id in runs or not q.understood], runs, outcomes


@app.command()
def medevidence(
    records: RecordsArg,
    data: MedEvidenceOpt = MEDEVIDENCE_DEV,
    out: ReportFolder = Path("reports/medevidence"),
    prm: PrmOpt = None,
    thresholds: ThresholdsOpt = None,
    freeze_firmness: Annotated[Path | None, typer.Option(
        help="Also write the DACG row's definite / uncertain / insufficient rule (tuned on "
             "the even ids) here, for `dacg query` (shipped: data/eval/firmness.json).")]
    = None,
    grounding: Annotated[bool, typer.Option(
        help="Also split the questions by whether both endpoints ground to MeSH: drift "
             "and abstracts read at k = 20 (needs the MeSH table).")] = True,
    mesh: Annotated[Path | None, typer.Option(
        help="MeSH table; default $DACG_MESH or the shared one.")] = None,
) -> None:
    """Score every policy on MedEvidence 5-way (mapping tuned on half of dev) and 3-way."""
    from pipeline.evaluation import figures
    from pipeline.evaluation.analyses import grounding_split
    from pipeline.evaluation.medevidence import (
        ANSWERS,
        across_reviews_note,
        evaluate_policy,
        majority_note,
        markdown,
        study_facts,
        write_firmness,
    )
    from pipeline.recordings import sha256_file

    questions, runs, outcomes = _medevidence_runs(records, data, prm, thresholds)
    gold = {q.id: q.answer for q in questions}
    facts = study_facts(questions)
    unanswered = [q.id for q in questions if not q.understood]
    stops = {name: {o.query_id: o.stop for o in outs} for name, outs in outcomes.items()}
    rows = {name: evaluate_policy(runs, stops[name], gold, facts, unanswered)
            for name in outcomes}
    out.mkdir(parents=True, exist_ok=True)
    table = (markdown(rows) + "\n" + majority_note(gold)
             + across_reviews_note(runs, stops["DACG"], gold, facts,
                                   {q.id: q.review_pmid for q in questions},
                                   rows["DACG"].tuning_accuracy))
    if grounding:
        groups = grounding_split(outcomes["k=20"], _grounded(str(data), mesh))
        table += ("\nGrounding and drift at k = 20 (every recorded question; MeSH exact, "
                  "folded or normalised, no linker):\n\n| Endpoints | Questions | Drift % | "
                  "Abstracts per question |\n|---|---:|---:|---:|\n" + "".join(
                      f"| {'both ground to MeSH' if flag else 'not both'} | {g.queries} | "
                      f"{100 * g.drift:.1f} | {g.abstracts:.2f} |\n"
                      for flag, g in groups.items()))
    (out / "medevidence.md").write_text(table, encoding="utf-8")
    shown: dict[str, Mapping[str, float]] = {
        n: rows[n].recall for n in ("k=1", "k=20", "KL-only", "DACG") if n in rows}
    figures.recall_bars(shown, ANSWERS, out / "medevidence_recall.png",
                        ("no difference", "mean of 24 LLMs (MedEvidence paper)", 0.41))
    console.print(table, markup=False, soft_wrap=True)
    console.print(f"{len(runs)} questions; wrote {out / 'medevidence.md'} and "
                  f"{out / 'medevidence_recall.png'}", highlight=False)
    if freeze_firmness is not None:
        write_firmness(rows["DACG"].mapping.rule, freeze_firmness, {
            "tuned_on": f"{data.name}, even question ids, DACG stops",
            "records": {str(p): sha256_file(p) for p in records},
            "tuning_accuracy": round(rows["DACG"].tuning_accuracy, 4)})
        console.print(f"froze the DACG firmness rule in {freeze_firmness}", highlight=False)


@app.command("ledger")
def ledger_command(
    records: RecordsArg,
    data: MedEvidenceOpt = MEDEVIDENCE_DEV,
    policy: Annotated[str, typer.Option(help="The stopping policy whose answers are filed.")]
    = "DACG",
    half: Annotated[str, typer.Option(
        help="Which questions: all, even (the tuning half) or odd (held out).")] = "all",
    show: Annotated[bool, typer.Option(
        "--show", help="Also print each wrong answer with every study's sentence.")] = False,
    prm: PrmOpt = None,
    thresholds: ThresholdsOpt = None,
) -> None:
    """File every wrong MedEvidence answer under its cause (issue 14's error ledger): no
    finding, reading, stopped early, pooling, firmness; the 5-way mapping is the one
    `bench medevidence` tunes on the even ids. Under the table: the answers that would be
    right with every study read the review's way, and with every firmness judgement
    right."""
    from pipeline.evaluation.ledger import (
        ceilings,
        ceilings_text,
        counts_markdown,
        details_text,
        ledger,
    )
    from pipeline.evaluation.medevidence import study_facts, tune_mapping

    if half not in ("all", "even", "odd"):
        raise fail(f"unknown half {half!r} (use all, even or odd)", 2)
    questions, runs, outcomes = _medevidence_runs(records, data, prm, thresholds)
    if policy not in outcomes:
        raise fail(f"unknown policy {policy!r} (use one of: {', '.join(outcomes)})", 2)
    gold = {q.id: q.answer for q in questions}
    facts = study_facts(questions)
    stops = {o.query_id: o.stop for o in outcomes[policy]}
    mapping, _ = tune_mapping(runs, {q: s for q, s in stops.items() if int(q) % 2 == 0},
                              gold, facts)
    def shown(question: str) -> bool:
        return half == "all" or int(question) % 2 == (0 if half == "even" else 1)

    chosen = {q: s for q, s in stops.items() if shown(q)}
    unanswered = [q.id for q in questions if not q.understood and shown(q.id)]
    fulltext = {q.id: q.fulltext_required for q in questions}
    wrong = ledger(runs, chosen, gold, mapping, facts, fulltext, unanswered)
    asked = len(chosen) + len(unanswered)
    console.print(counts_markdown(wrong, asked), markup=False, soft_wrap=True)
    console.print(ceilings_text(ceilings(wrong, runs, chosen, mapping, facts, asked)),
                  markup=False, soft_wrap=True, highlight=False)
    if show:
        console.print(details_text(wrong), markup=False, soft_wrap=True, highlight=False)

"""Extraction commands: training the confidence model, building the MeSH index, and
extracting evidence from abstracts (`dacg extract ...`); and the grounding audit and the
Evidence Inference evaluation, which `pipeline/cli.py` files under what a user does:
`dacg audit grounding` and `dacg eval extractor`.

Expected failures (a missing file, a bad MeSH table) print one line and exit non-zero.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from pipeline.resources import MEDEVIDENCE_DEV, SHARED_DATA
from pipeline.terminal import Stopwatch, command_group, console, fail

if TYPE_CHECKING:
    from pipeline.extraction.mesh import MeshIndex

app = command_group("Evidence extraction: train the confidence model, build the MeSH index, "
                    "extract evidence rows from abstracts.")

EI_DEV = SHARED_DATA / "evidence_inference" / "dev.jsonl"
EI_TRAIN = SHARED_DATA / "evidence_inference" / "train_evidence.jsonl"


def _existing(path: Path | None, what: str) -> Path:
    if path is None or not path.is_file():
        raise fail(f"{what} not found ({path}); pass its path", 2)
    return path


def _mesh(path: Path | None, with_linker: bool = True) -> MeshIndex:
    from pipeline.extraction.mesh import MeshError, MeshIndex

    try:
        return MeshIndex.load(path, with_linker=with_linker)
    except (MeshError, OSError) as exc:
        raise fail(str(exc)) from None


def grounding(
    medevidence: Annotated[Path, typer.Option(
        help="MedEvidence questions (JSONL) whose entities are audited.")] = MEDEVIDENCE_DEV,
    mesh: Annotated[Path | None, typer.Option(
        help="MeSH descriptor/term TSV(.gz) or desc XML; default $DACG_MESH or the shared "
             "table.")] = None,
    linker: Annotated[bool, typer.Option(help="Include the TF-IDF linker tier.")] = True,
    labels: Annotated[Path | None, typer.Option(
        help="Hand labels of linker matches (TSV: entity, UI, C|P|W) for precision.")] = None,
    show: Annotated[int, typer.Option(help="Print this many linker matches.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Share of benchmark entities grounded to MeSH, by tier (cumulative)."""
    from pipeline.extraction.audit import (
        TIERS,
        ground_entities,
        linker_precision,
        summarise,
    )
    from pipeline.retrieval.medevidence import endpoint_mentions, read_medevidence

    entities = endpoint_mentions(read_medevidence(_existing(medevidence, "MedEvidence file")))
    index = _mesh(mesh, linker)
    rows = ground_entities(index, entities, linker)
    summary = summarise(rows)
    precision = linker_precision(rows, _existing(labels, "labels file")) if labels else None
    if as_json:
        body: dict[str, object] = {
            "mentions": summary.mentions, "distinct": summary.distinct,
            "mention_rates": summary.mention_rates, "distinct_rates": summary.distinct_rates,
            "questions": summary.questions, "both_endpoints_grounded": summary.both_grounded}
        if precision is not None:
            body["linker_precision"] = {"labelled": precision.labelled,
                                        "strict": precision.strict,
                                        "lenient": precision.lenient,
                                        "unmatched_labels": precision.unmatched}
        console.print_json(json.dumps(body))
        return
    table = Table(title="MeSH grounding (cumulative tiers)")
    table.add_column("tier")
    table.add_column(f"mentions (n={summary.mentions})", justify="right")
    table.add_column(f"distinct (n={summary.distinct})", justify="right")
    for tier in TIERS if linker else TIERS[:-1]:
        table.add_row(tier, f"{summary.mention_rates[tier]:.1%}",
                      f"{summary.distinct_rates[tier]:.1%}")
    console.print(table)
    console.print(f"questions with both endpoints grounded: {summary.both_grounded:.1%} "
                  f"of {summary.questions}", highlight=False)
    if precision is not None:
        console.print(f"linker precision on {precision.labelled} hand-labelled matches: "
                      f"{precision.strict:.1%} strict, {precision.lenient:.1%} counting "
                      f"partial matches ({precision.unmatched} labels not reproduced)",
                      highlight=False)
    shown = [r for r in {r.text: r for r in rows}.values() if r.tier == "linker"][:show]
    for row in shown:
        if row.grounding is None:
            continue
        console.print(f"  {row.text!r} -> {row.grounding.descriptor.name} ({row.grounding.ui})"
                      f" via {row.grounding.matched!r}", highlight=False, markup=False)


def evaluate(
    data: Annotated[Path, typer.Option(help="Evidence Inference prompts with abstracts "
                                            "(JSONL).")] = EI_DEV,
    limit: Annotated[int, typer.Option(help="Evaluate the first N prompts (0: all).")] = 0,
    calibrated: Annotated[bool, typer.Option(
        help="Use the trained confidence model (off: rules only).")] = True,
    fallback: Annotated[bool, typer.Option(
        help="Classify the picked sentence when the rules read none.")] = True,
    passages: Annotated[str | None, typer.Option(
        help="Score instead the evidence passages of the dev file's articles that are not "
             "dev evidence (--train), half A or B of those articles.")] = None,
    train: Annotated[Path, typer.Option(help="Evidence Inference evidence passages "
                                             "(JSONL), for --passages.")] = EI_TRAIN,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Macro-F1, per-class P/R/F1 and confusion of the extractor on Evidence Inference."""
    from pipeline.extraction.calibration import load_default_model
    from pipeline.extraction.evaluate import LABELS, PASSAGE_HALVES, read_prompts, unread_passages
    from pipeline.extraction.evaluate import evaluate as run
    from pipeline.extraction.extractor import RuleExtractor
    from pipeline.extraction.fallback import load_default_classifier

    if passages is not None and passages not in PASSAGE_HALVES:
        raise fail(f"unknown passage half {passages!r} (use A or B)", 2)
    dev = _existing(data, "Evidence Inference file")
    prompts = (unread_passages(_existing(train, "training file"), dev, passages)
               if passages else read_prompts(dev))
    if limit:
        prompts = prompts[:limit]
    model = load_default_model() if calibrated else None
    extractor = RuleExtractor(calibration=model,
                              fallback=load_default_classifier() if fallback else None)
    clock = Stopwatch()
    report = run(extractor, prompts)
    seconds = clock.seconds
    per_class = report.per_class()
    if as_json:
        console.print_json(json.dumps({
            "prompts": len(prompts), "extractor": extractor.name,
            "macro_f1": report.macro_f1, "accuracy": report.accuracy,
            "nothing_extracted": report.missing_share,
            "per_class": {k: dict(zip(("precision", "recall", "f1", "support"), v,
                                      strict=True)) for k, v in per_class.items()},
            "confusion": report.confusion(), "seconds": seconds}))
        return
    console.print(f"{len(prompts)} prompts, extractor {extractor.name}, {seconds:.1f} s",
                  highlight=False)
    console.print(f"macro-F1 {report.macro_f1:.3f}  accuracy {report.accuracy:.3f}  "
                  f"nothing extracted {report.missing_share:.1%} (scored as no difference)",
                  highlight=False)
    table = Table(title="per class")
    for column in ("label", "precision", "recall", "F1", "support"):
        table.add_column(column, justify="left" if column == "label" else "right")
    for label, (p, r, f, n) in per_class.items():
        table.add_row(label, f"{p:.3f}", f"{r:.3f}", f"{f:.3f}", str(n))
    console.print(table)
    confusion = Table(title="confusion (rows gold, columns predicted)")
    confusion.add_column("gold")
    for label in LABELS:
        confusion.add_column(label.replace("significantly ", ""), justify="right")
    for gold, row in report.confusion().items():
        confusion.add_row(gold, *(str(row[p]) for p in LABELS))
    console.print(confusion)


@app.command()
def train(
    data: Annotated[Path, typer.Option(help="Evidence Inference evidence passages "
                                            "(JSONL).")] = EI_TRAIN,
    exclude: Annotated[Path, typer.Option(help="Prompts whose articles must not be trained "
                                               "on (the dev set).")] = EI_DEV,
    out: Annotated[Path, typer.Option(help="Where to write the weights.")] = Path(
        "data/models/confidence_lr.json"),
    fallback_out: Annotated[Path, typer.Option(
        help="Where to write the fallback classifier.")] = Path(
        "data/models/fallback_tfidf.json"),
) -> None:
    """Train the confidence model and the fallback classifier (reproducible: same data,
    same weights)."""
    from pipeline.extraction.train import train_confidence_model, train_fallback_classifier

    model, data_set = train_confidence_model(_existing(data, "training file"),
                                             _existing(exclude, "dev file"))
    model.save(out)
    passages = data_set.rows - data_set.excluded_rows
    console.print(f"{len(data_set.examples)} examples from {passages} passages "
                  f"({data_set.excluded_rows} dev-article rows excluded, "
                  f"{data_set.unread_rows} unread); C={model.meta and model.meta['C']}; "
                  f"weights written to {out}", highlight=False)
    classifier, used, _ = train_fallback_classifier(data, exclude)
    meta = classifier.meta or {}
    console.print(f"fallback classifier: {used} passages, {len(classifier.vocabulary)} terms, "
                  f"C={meta.get('C')}, grouped-CV macro-F1 {meta.get('cv_macro_f1')}; "
                  f"written to {fallback_out}", highlight=False)
    classifier.save(fallback_out)


@app.command()
def index(
    mesh: Annotated[Path | None, typer.Option(help="MeSH TSV(.gz) or desc XML; default "
                                                   "$DACG_MESH or the shared table.")] = None,
) -> None:
    """Build (once) or load the cached MeSH linker index, and time it."""
    clock = Stopwatch()
    loaded = _mesh(mesh)
    directory = loaded.linker.directory if loaded.linker else None
    console.print(f"{len(loaded.table.descriptors)} descriptors; index at {directory}; "
                  f"{clock.seconds:.1f} s", highlight=False)


@app.command()
def abstracts(
    source: Annotated[Path, typer.Argument(help="JSONL of abstracts: pmid, title, abstract "
                                                "(or text), year.")],
    intervention: Annotated[str, typer.Option(help="Query intervention.")],
    outcome: Annotated[str, typer.Option(help="Query outcome.")],
    comparator: Annotated[str | None, typer.Option(help="Query comparator.")] = None,
    mediator: Annotated[list[str] | None, typer.Option(
        help="A mediator for two-hop rows (repeatable).")] = None,
    mesh: Annotated[Path | None, typer.Option(help="Ground entities with this MeSH "
                                                   "file.")] = None,
) -> None:
    """Evidence rows (the `dacg ingest` format) from a JSONL of abstracts for one query."""
    from pipeline.extraction.extractor import default_extractor
    from pipeline.extraction.resolve import EntityResolver
    from pipeline.model import InvalidEvidence, Query
    from pipeline.retrieval.corpus import read_abstract_rows

    index_ = _mesh(mesh) if mesh else None
    resolver = EntityResolver(index_)
    try:
        query = resolver.resolve_query(Query(
            resolver.resolve(intervention, "intervention"), resolver.resolve(outcome, "outcome"),
            resolver.resolve(comparator, "comparator") if comparator is not None else None))
        mediators = [resolver.resolve(m, "mediator") for m in mediator or []]
    except InvalidEvidence as exc:
        raise fail(str(exc), 2) from None
    extractor = default_extractor(index_)
    for abstract in read_abstract_rows(_existing(source, "abstracts file")):
        for evidence in extractor.extract(abstract, query, mediators):
            sys.stdout.write(json.dumps({
                "head": evidence.head.name, "tail": evidence.tail.name,
                "polarity": int(evidence.polarity), "confidence": evidence.confidence,
                "pmid": evidence.pmid, "sentence": evidence.sentence,
                "extractor": evidence.extractor, "year": evidence.year}) + "\n")


if __name__ == "__main__":
    app()

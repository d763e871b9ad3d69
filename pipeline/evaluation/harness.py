"""From recorded trajectories to the paper's tables and figures (SPEC §5): score the steps
with the PRM, replay every policy with the frozen thresholds on one split, summarise, and
write Markdown, CSV and PNG files that the same records always reproduce byte for byte."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pipeline.evaluation import figures
from pipeline.evaluation.meta import meta_label, parse_effect
from pipeline.evaluation.metrics import (
    PolicyMetrics,
    class_drift,
    posterior_curves,
    summarise,
)
from pipeline.evaluation.replay import (
    FIXED_BUDGETS,
    Outcome,
    Runs,
    Thresholds,
    policies,
    replay_all,
)
from pipeline.evaluation.report import (
    REFERENCE,
    ablation_table,
    check_claims,
    claims_markdown,
    main_table,
    paper_comparison,
)
from pipeline.model import Abstract
from pipeline.stopping.policies import BUDGET
from pipeline.stopping.prm import RewardModel, score_steps
from pipeline.trajectory import StepRecord

EVALUATED = ("Beneficial", "NoEffect")  # the paper's main table; Harmful is reported apart
CURVE_LABEL = "Beneficial"


def scored(runs: Runs, model: RewardModel | None) -> dict[str, list[StepRecord]]:
    """The runs with each step's PRM reward (as recorded when there is no model)."""
    if model is None:
        return {q: list(steps) for q, steps in runs.items()}
    return {q: score_steps(model, steps) for q, steps in runs.items()}


@dataclass(frozen=True)
class Evaluation:
    """Everything a report shows for one set of queries."""

    outcomes: dict[str, list[Outcome]]
    metrics: dict[str, PolicyMetrics]
    coverage: dict[str, float]
    harmful: dict[str, PolicyMetrics]
    curves: dict[str, list[float]]
    class_drift: dict[str, float | None]


def evaluate(runs: Runs, truth: Mapping[str, str], thresholds: Thresholds,
             extra: Mapping[str, Mapping[str, str | None]] | None = None,
             classes: Sequence[str] = EVALUATED, budget: int = BUDGET,
             resamples: int = 10_000, seed: int = 0) -> Evaluation:
    """Replay every policy on `runs` (one split). `extra` adds non-stopping methods as a
    label per query, None where the method is not applicable (trim-and-fill)."""
    outcomes = replay_all(policies(thresholds), runs, truth, budget)
    main_ids = [q for q in sorted(runs) if truth[q] in classes]
    harm_ids = [q for q in sorted(runs) if truth[q] not in classes]
    by_id = {name: {o.query_id: o for o in outs} for name, outs in outcomes.items()}
    reference = [by_id[REFERENCE][q] for q in main_ids]
    metrics = {name: summarise([ids[q] for q in main_ids], classes, reference, resamples, seed)
               for name, ids in by_id.items()}
    coverage: dict[str, float] = {}
    for name, labels in (extra or {}).items():
        applicable = [q for q in main_ids if labels.get(q) is not None]
        coverage[name] = len(applicable) / len(main_ids) if main_ids else 0.0
        if applicable:
            rows = [Outcome(q, truth[q], str(labels[q]), len(runs[q]), name, None)
                    for q in applicable]
            metrics[name] = summarise(rows, classes, [by_id[REFERENCE][q] for q in applicable],
                                      resamples, seed)
    harmful = {name: summarise([ids[q] for q in harm_ids], sorted({truth[q] for q in harm_ids}),
                               None, resamples, seed)
               for name, ids in by_id.items()} if harm_ids else {}
    return Evaluation(
        outcomes=outcomes, metrics=metrics, coverage=coverage, harmful=harmful,
        curves=posterior_curves({q: runs[q] for q in main_ids}, truth, CURVE_LABEL, classes,
                                budget),
        class_drift={c: class_drift([by_id[REFERENCE][q] for q in main_ids], c)
                     for c in classes},
    )


def direct_rows(steps: Sequence[StepRecord]) -> list[dict[str, Any]]:
    """The evidence rows, in reading order, that link the query's two entities directly
    (the endpoints of its paths): mechanism studies report another outcome and have no
    place in the query's meta-analysis or its body of evidence."""
    ends = next(((p["nodes"][0], p["nodes"][-1]) for s in steps for p in s.top_paths), None)
    if ends is None:
        return []
    return [e for s in steps for e in s.new_evidence if (e["head"], e["tail"]) == ends]


def direct_study_pmids(steps: Sequence[StepRecord]) -> list[str]:
    """PMIDs, in reading order, of the studies with a direct row."""
    return list(dict.fromkeys(e["pmid"] for e in direct_rows(steps)))


def abstract_texts(abstracts: Iterable[Abstract]) -> dict[str, str]:
    """Title and text of each abstract by PMID: what the trim-and-fill baseline reads."""
    return {a.pmid: f"{a.title} {a.text}" for a in abstracts}


def trim_and_fill_labels(runs: Runs, texts: Mapping[str, str],
                         directions: Mapping[str, int]) -> dict[str, str | None]:
    """The trim-and-fill baseline's answer per query over every study the run retrieved
    (its full recorded budget): effects parsed from the abstracts, None where fewer than
    three could be pooled (not applicable)."""
    labels: dict[str, str | None] = {}
    for query_id, steps in runs.items():
        effects = [parse_effect(texts[p]) for p in direct_study_pmids(steps) if p in texts]
        found = meta_label([e for e in effects if e is not None], directions[query_id])
        labels[query_id] = None if found is None else str(found)
    return labels


def _harmful_markdown(harmful: Mapping[str, PolicyMetrics]) -> str:
    lines = ["| Method | n | Harmful accuracy % | Steps |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {m.n} | {100 * m.accuracy:.1f} | {m.mean_steps:.2f} |"
              for name, m in harmful.items()]
    return "\n".join(lines) + "\n"


def write_report(result: Evaluation, out: Path, title: str,
                 settings: Mapping[str, object]) -> list[Path]:
    """Write the tables (Markdown + CSV), the claims, the curves and the figures into
    `out`; report.md gathers them. Returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    main = main_table(result.metrics, result.coverage)
    ablation = ablation_table(result.metrics)
    claims = check_claims(result.metrics)
    files: dict[str, str] = {
        "main.md": main.markdown(), "main.csv": main.csv(),
        "ablation.md": ablation.markdown(), "ablation.csv": ablation.csv(),
        "claims.md": claims_markdown(claims),
        "vs_paper.md": paper_comparison(result.metrics),
    }
    if result.harmful:
        files["harmful.md"] = _harmful_markdown(result.harmful)
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    with (out / "curves.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["step", *(f"q_{CURVE_LABEL}_true_{c}" for c in result.curves)])
        for t, values in enumerate(zip(*result.curves.values(), strict=True), 1):
            writer.writerow([t, *(f"{v:.6f}" for v in values)])
    figures.drift_vs_budget(result.metrics, FIXED_BUDGETS, out / "drift_vs_k.png")
    figures.noeffect_vs_steps(result.metrics, out / "noeffect_vs_steps.png")
    figures.posterior_curves(result.curves, CURVE_LABEL, out / "posterior_curves.png")
    (out / "report.md").write_text(_report_markdown(result, title, settings, files),
                                   encoding="utf-8")
    return sorted(out.iterdir())


def _report_markdown(result: Evaluation, title: str, settings: Mapping[str, object],
                     files: Mapping[str, str]) -> str:
    ref = result.metrics[REFERENCE]
    firsts = ref.median_first_correct
    drift = ", ".join(f"{c} {'–' if v is None else f'{100 * v:.1f}%'}"
                      for c, v in result.class_drift.items())
    parts = [
        f"# {title}\n",
        "Settings: " + "; ".join(f"{k} = {v}" for k, v in settings.items()) + "\n",
        "## Main comparison\n", files["main.md"],
        "## Ablation of the stopping components\n", files["ablation.md"],
        "## The paper's claims, checked\n", files["claims.md"],
        "## Drift by class\n",
        f"At k = 20, of the queries that held the true label by their stop, the share "
        f"wrong at the stop: {drift}. Median time to the first correct label: "
        f"{'–' if firsts is None else f'{firsts:g}'} step(s).\n",
        "Per-class mean q(Beneficial) over steps: curves.csv, posterior_curves.png.\n",
    ]
    if "harmful.md" in files:
        parts += ["## Harmful queries (analysed apart, as in the paper)\n", files["harmful.md"]]
    parts += ["## Figures\n", "![drift vs k](drift_vs_k.png)\n",
              "![NoEffect accuracy vs steps](noeffect_vs_steps.png)\n",
              "![mean q(Beneficial) per class](posterior_curves.png)\n"]
    return "\n".join(parts)


def thresholds_settings(thresholds: Thresholds) -> dict[str, object]:
    return {f"threshold {k}": v for k, v in asdict(thresholds).items()}


PAPER_ANALYSES = {"ece": 0.236, "reward_correct": -0.082, "reward_incorrect": -0.368,
                  "reward_gap": 0.287, "train_margin": 2.53, "pairwise_test": 0.881}


def write_analyses(by_split: Mapping[str, Runs], truth: Mapping[str, str],
                   thresholds: Thresholds, out: Path, scored_by: str,
                   grounded: Mapping[str, bool] | None = None) -> list[Path]:
    """analyses.md and reliability.png: posterior calibration on test, the PRM's reward on
    correct vs incorrect test steps and its margin on train pairs, the main table on the
    disjoint validation + test union (the paper's n = 280 generalisation row) and, given
    which queries' endpoints both ground to MeSH, drift and abstracts per group."""
    from pipeline.evaluation.analyses import (
        grounding_split,
        pair_margin,
        reliability,
        reward_gap,
    )

    out.mkdir(parents=True, exist_ok=True)
    test = by_split["test"]
    rel = reliability(test, truth, EVALUATED)
    figures.reliability_diagram(rel.confidence, rel.accuracy, rel.count, rel.ece,
                                out / "reliability.png")
    paper = PAPER_ANALYSES
    parts = ["# Analyses beyond the tables\n",
             "## Posterior calibration (test split, every informed step)\n",
             f"Expected calibration error {rel.ece:.3f} over {rel.steps} steps in "
             f"{len(rel.count)} non-empty bins of width 0.1 (paper: {paper['ece']}, "
             f"overconfident in the high bins).\n",
             "| Bin mean confidence | Accuracy | Steps | Accuracy - confidence |",
             "|---:|---:|---:|---:|"]
    parts += [f"| {c:.3f} | {a:.3f} | {n} | {a - c:+.3f} |"
              for c, a, n in zip(rel.confidence, rel.accuracy, rel.count, strict=True)]
    parts += ["\n![reliability diagram](reliability.png)\n",
              f"## PRM reward ({scored_by})\n"]
    if all(s.reward is not None for steps in test.values() for s in steps):
        gap = reward_gap(test, truth, EVALUATED)
        margin, share, pairs = pair_margin(by_split["train"], truth)
        test_margin, test_share, test_pairs = pair_margin(test, truth)
        parts += [
            "| Quantity | Here | Paper |", "|---|---:|---:|",
            f"| Mean reward, correct test steps (n = {gap.n_correct}) | {gap.correct:.3f} | "
            f"{paper['reward_correct']} |",
            f"| Mean reward, incorrect test steps (n = {gap.n_incorrect}) | "
            f"{gap.incorrect:.3f} | {paper['reward_incorrect']} |",
            f"| Gap | {gap.gap:.3f} | {paper['reward_gap']} |",
            f"| Training margin: mean r_i - r_j over {pairs} train pairs | {margin:.3f} | "
            f"{paper['train_margin']} |",
            f"| Pairwise accuracy, train | {100 * share:.1f}% | – |",
            f"| Pairwise accuracy, test ({test_pairs} pairs) | {100 * test_share:.1f}% | "
            f"{100 * paper['pairwise_test']:.1f}% |",
            f"| Mean r_i - r_j, test pairs | {test_margin:.3f} | – |", ""]
    else:
        parts.append("No PRM scored these steps (run with --prm DIR).\n")
    union = {**by_split["validation"], **test}
    result = evaluate(union, truth, thresholds)
    parts += ["## Generalisation: the disjoint validation + test union\n",
              f"n = {result.metrics[REFERENCE].n} Beneficial/NoEffect queries (the paper's "
              "extended-version row; thresholds were tuned on validation, so this union "
              "is not fully held out for them).\n",
              main_table(result.metrics).markdown()]
    if grounded is not None:
        full = replay_all({REFERENCE: policies(thresholds)[REFERENCE]}, test, truth,
                          with_oracle=False)[REFERENCE]
        groups = grounding_split(full, grounded)
        parts += ["## Grounding and drift (test split, every class, k = 20)\n",
                  "| Endpoints | Queries | Drift % | Abstracts per query | Paper |",
                  "|---|---:|---:|---:|---|"]
        paper_group = {True: "33 queries, 36.4%, 12.1", False: "139 queries, 17.3%, 6.3"}
        parts += [f"| {'both ground to MeSH' if flag else 'not both'} | {g.queries} | "
                  f"{100 * g.drift:.1f} | {g.abstracts:.2f} | {paper_group[flag]} |"
                  for flag, g in groups.items()]
        parts.append("")
    (out / "analyses.md").write_text("\n".join(parts), encoding="utf-8")
    return [out / "analyses.md", out / "reliability.png"]

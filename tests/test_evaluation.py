"""The evaluation harness on hand-built recordings: structural rules, outcomes (drift,
regret, oracle), metrics against hand-computed values, tuning on validation only, and
reports that the same records reproduce byte for byte."""

from __future__ import annotations

import json
from dataclasses import replace
from math import comb
from pathlib import Path

import pytest
from sklearn.metrics import f1_score
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.evaluation.harness import evaluate, write_report
from pipeline.evaluation.ledger import ceilings, ceilings_text, counts_markdown, ledger
from pipeline.evaluation.medevidence import (
    FiveWay,
    StudyFacts,
    across_reviews,
    evaluate_policy,
    halves,
    majority_note,
    study_facts,
)
from pipeline.evaluation.metrics import (
    bootstrap_ci,
    class_drift,
    mcnemar_exact,
    posterior_curves,
    summarise,
)
from pipeline.evaluation.replay import (
    PAPER_THRESHOLDS,
    Outcome,
    Thresholds,
    first_correct_step,
    oracle_outcome,
    policies,
    replay_all,
    stop_outcome,
)
from pipeline.evaluation.report import Claim, check_claims
from pipeline.evaluation.tuning import tune
from pipeline.inference.evidence_body import FirmnessRule
from pipeline.inference.features import FEATURE_VERSION
from pipeline.recordings import write_steps
from pipeline.retrieval.medevidence import read_medevidence
from pipeline.stopping.policies import FixedBudget, KLOnly
from pipeline.stopping.structural import DensityStability, EvidencePlateau, PathDiscovery
from pipeline.stopping.thresholds import thresholds_from_json
from pipeline.trajectory import StepRecord

CLASSES = ("Beneficial", "NoEffect")


def step(t: int, label: str = "Beneficial", kl: float = 1.0, density: float = 0.5,
         evidence: int = 1, paths: tuple[tuple[str, ...], ...] = (("a", "b"),),
         query: str = "q1", q_beneficial: float = 0.5) -> StepRecord:
    informed = label != "NoEvidence"
    rest = (1.0 - q_beneficial) / 2
    return StepRecord(
        query_id=query, step=t, retrieved_pmids=[f"{query}-{t}"], new_evidence=[],
        graph={"density": density, "evidence": evidence}, top_paths=[
            {"nodes": list(p), "polarities": [1] * (len(p) - 1), "strength": 0.5}
            for p in paths] if informed else [],
        posterior={"Beneficial": q_beneficial, "NoEffect": rest, "Harmful": rest},
        informed=informed, label=label, kl=kl, energy={}, features={},
        feature_version=FEATURE_VERSION)


def labelled(query: str, *labels: str, kls: tuple[float, ...] = ()) -> list[StepRecord]:
    kl = list(kls) + [1.0] * (len(labels) - len(kls))
    return [step(t, label, kl[t - 1], query=query) for t, label in enumerate(labels, 1)]


# --- structural rules -------------------------------------------------------------------

def test_density_stability_fires_when_density_stops_changing() -> None:
    rule = DensityStability(epsilon=0.01)
    assert rule.fires([step(1, density=0.5)]) is None  # nothing to compare with
    assert rule.fires([step(1, density=0.5), step(2, density=0.505)]) == "density_stable"
    assert rule.fires([step(1, density=0.5), step(2, density=0.52)]) is None
    assert DensityStability(0.0).fires([step(1), step(2)]) == "density_stable"
    assert rule.fires([step(1), step(2, label="NoEvidence")]) is None  # uninformed


def test_path_discovery_fires_after_window_steps_without_a_new_path() -> None:
    ab, acb = ("a", "b"), ("a", "c", "b")
    rule = PathDiscovery(window=2)
    steps = [step(1, paths=(ab,)), step(2, paths=(ab, acb)), step(3, paths=(ab, acb)),
             step(4, paths=(acb,))]
    assert rule.fires(steps[:2]) is None  # only 2 steps: none before the window
    assert rule.fires(steps[:3]) is None  # step 2 found a-c-b
    assert rule.fires(steps) == "no_new_paths"  # steps 3-4 found nothing new
    assert PathDiscovery(window=1).fires(steps[:3]) == "no_new_paths"
    with pytest.raises(ValueError):
        PathDiscovery(window=0)


def test_path_discovery_needs_a_path_before_the_window() -> None:
    steps = [step(1, label="NoEvidence"), step(2)]
    assert PathDiscovery(window=1).fires(steps) is None


def test_evidence_plateau_uses_growth_over_the_window() -> None:
    rule = EvidencePlateau(growth=0.25, window=2)
    steps = [step(1, evidence=4), step(2, evidence=5), step(3, evidence=5)]
    # (5 - 4) / 4 = 0.25: not below 0.25
    assert rule.fires(steps) is None
    steps.append(step(4, evidence=6))  # (6 - 5) / 5 = 0.2 < 0.25
    assert rule.fires(steps) == "evidence_plateau"
    assert rule.fires([step(1, evidence=0), step(2, evidence=0), step(3, evidence=0)]) is None


# --- outcomes ---------------------------------------------------------------------------

def test_drift_regret_and_first_correct() -> None:
    steps = labelled("q", "NoEvidence", "NoEffect", "Beneficial", "Beneficial")
    assert first_correct_step(steps, "NoEffect") == 2
    assert first_correct_step(steps, "NoEvidence") is None  # NoEvidence is never correct
    late = stop_outcome(FixedBudget(4), steps, "NoEffect")
    assert (late.label, late.stop, late.reason) == ("Beneficial", 4, "fixed_k")
    assert late.drifted and not late.correct and late.regret == 2
    early = stop_outcome(FixedBudget(1), steps, "NoEffect")
    assert not early.drifted and early.regret == 0  # stopped before the correct step
    right = stop_outcome(FixedBudget(2), steps, "NoEffect")
    assert right.correct and not right.drifted and right.regret == 0
    never = stop_outcome(FixedBudget(4), steps, "Harmful")
    assert never.first_correct is None and never.regret is None and not never.drifted


def test_source_dry_and_budget_reasons() -> None:
    steps = labelled("q", "NoEffect", "NoEffect")
    assert stop_outcome(KLOnly(0.01), steps, "NoEffect", budget=20).reason == "source_dry"
    assert stop_outcome(KLOnly(0.01), steps, "NoEffect", budget=2).reason == "budget"


def test_oracle_stops_at_the_first_correct_step_else_the_first() -> None:
    steps = labelled("q", "Beneficial", "Beneficial", "NoEffect")
    assert oracle_outcome(steps, "NoEffect").stop == 3
    assert oracle_outcome(steps, "NoEffect").correct
    miss = oracle_outcome(steps, "Harmful")
    assert (miss.stop, miss.correct) == (1, False)


def test_replay_all_runs_every_policy_and_refuses_unknown_truth() -> None:
    runs = {"q1": labelled("q1", "NoEffect", "Beneficial"),
            "q2": labelled("q2", "Beneficial", "Beneficial")}
    results = replay_all(policies(), runs, {"q1": "NoEffect", "q2": "Beneficial"})
    assert set(results) == {"k=1", "k=3", "k=5", "k=10", "k=20", "KL-only", "PRM-only",
                            "DACG", "Density stability", "Path discovery",
                            "Evidence plateau", "Oracle"}
    assert [o.label for o in results["k=1"]] == ["NoEffect", "Beneficial"]
    assert [o.label for o in results["k=20"]] == ["Beneficial", "Beneficial"]
    with pytest.raises(ValueError, match="no true label"):
        replay_all(policies(), runs, {"q1": "NoEffect"})


# --- metrics ----------------------------------------------------------------------------

def outcome(query: str, truth: str, label: str, stop: int = 1,
            first: int | None = None) -> Outcome:
    return Outcome(query, truth, label, stop, "fixed_k", first)


def test_mcnemar_exact_is_the_binomial_test_on_discordant_pairs() -> None:
    first = [True] * 8 + [False] * 2 + [True] * 5
    second = [False] * 8 + [True] * 2 + [True] * 5
    # 8 vs 2 discordant: p = 2 * P(X <= 2), X ~ Bin(10, 1/2)
    expected = 2 * sum(comb(10, i) for i in range(3)) / 2**10
    assert mcnemar_exact(first, second) == pytest.approx(expected, abs=1e-12)
    assert mcnemar_exact([True, False], [True, False]) == 1.0
    with pytest.raises(ValueError):
        mcnemar_exact([True], [True, False])


def test_bootstrap_ci_is_seeded_and_brackets_the_accuracy() -> None:
    correct = [True] * 60 + [False] * 40
    low, high = bootstrap_ci(correct, resamples=2000, seed=3)
    assert (low, high) == bootstrap_ci(correct, resamples=2000, seed=3)
    assert low < 0.6 < high
    # the normal approximation of a 95% CI half-width is 1.96 * sqrt(.6 * .4 / 100) = 0.096
    assert high - low == pytest.approx(2 * 0.096, abs=0.03)
    assert bootstrap_ci([True] * 5) == (1.0, 1.0)


def test_summarise_matches_hand_computed_values() -> None:
    rows = [outcome("a", "Beneficial", "Beneficial", stop=2, first=1),
            outcome("b", "Beneficial", "NoEffect", stop=4, first=1),      # drifted, regret 3
            outcome("c", "NoEffect", "NoEffect", stop=1, first=1),
            outcome("d", "NoEffect", "Beneficial", stop=3, first=None),   # never correct
            outcome("e", "NoEffect", "NoEvidence", stop=5, first=6)]      # correct after stop
    m = summarise(rows, CLASSES, resamples=1000)
    assert m.accuracy == pytest.approx(2 / 5)
    assert m.per_class == {"Beneficial": 0.5, "NoEffect": pytest.approx(1 / 3)}
    assert m.mean_steps == pytest.approx(15 / 5)
    assert m.drift_rate == pytest.approx(1 / 5)
    assert m.regret == pytest.approx((1 + 3 + 0 + 0) / 4)  # over the 4 with a first correct
    assert m.median_first_correct == 1
    assert m.mcnemar_p is None
    truths = [r.truth for r in rows]
    labels = [r.label for r in rows]
    assert m.macro_f1 == pytest.approx(f1_score(truths, labels, labels=list(CLASSES),
                                                average="macro"))
    # by hand: Beneficial P = 1/2, R = 1/2 -> F1 1/2; NoEffect P = 1/2, R = 1/3 -> F1 0.4
    assert m.macro_f1 == pytest.approx((0.5 + 0.4) / 2)
    assert class_drift(rows, "Beneficial") == 0.5
    assert class_drift(rows, "NoEffect") == 0.0


def test_summarise_refuses_a_reference_on_other_queries() -> None:
    rows = [outcome("a", "Beneficial", "Beneficial")]
    with pytest.raises(ValueError, match="same queries"):
        summarise(rows, CLASSES, [outcome("b", "Beneficial", "Beneficial")], resamples=100)


def test_posterior_curves_carry_the_last_state_forward() -> None:
    runs = {"a": [step(1, q_beneficial=0.2, query="a"), step(2, q_beneficial=0.4, query="a")],
            "b": [step(1, q_beneficial=0.6, query="b")]}
    curves = posterior_curves(runs, {"a": "NoEffect", "b": "NoEffect"}, "Beneficial",
                              ["NoEffect"], budget=3)
    assert curves["NoEffect"] == pytest.approx([0.4, 0.5, 0.5])


# --- tuning, claims and reports ---------------------------------------------------------

def test_tuning_picks_the_best_grid_point_and_prefers_fewer_steps() -> None:
    """KL stops NoEffect queries before the Beneficial-skewed tail only with delta 0.05."""
    runs = {f"n{i}": labelled(f"n{i}", "NoEffect", "NoEffect", "Beneficial",
                              kls=(1.0, 0.04, 0.0)) for i in range(3)}
    runs |= {f"b{i}": labelled(f"b{i}", "Beneficial", "Beneficial", "Beneficial",
                               kls=(1.0, 0.04, 0.0)) for i in range(3)}
    truth = {q: "NoEffect" if q.startswith("n") else "Beneficial" for q in runs}
    tuned, results = tune(runs, truth, CLASSES,
                          grids={"KL-only": {"kl_delta": (0.01, 0.05, 0.1)}})
    assert tuned.kl_delta == 0.05  # 0.05 and 0.1 both reach F1 1 at step 2: first wins
    assert results["KL-only"] == {"thresholds": {"kl_delta": 0.05}, "macro_f1": 1.0,
                                  "mean_steps": 2.0, "grid_points": 3}
    assert tuned.delta == PAPER_THRESHOLDS.delta  # untouched policies keep their values


def test_thresholds_from_json_refuses_unknown_keys() -> None:
    assert thresholds_from_json({"delta": 0.02}) == Thresholds(delta=0.02)
    with pytest.raises(ValueError, match="unknown thresholds"):
        thresholds_from_json({"dleta": 0.02})


def small_benchmark() -> tuple[dict[str, list[StepRecord]], dict[str, str]]:
    """Eight Beneficial/NoEffect queries and one Harmful, with drift in the NoEffect ones."""
    runs: dict[str, list[StepRecord]] = {}
    truth: dict[str, str] = {}
    for i in range(4):
        runs[f"n{i}"] = labelled(f"n{i}", "NoEffect", "NoEffect", *["Beneficial"] * (i + 1),
                                 kls=(1.0, 0.001))
        truth[f"n{i}"] = "NoEffect"
        runs[f"b{i}"] = labelled(f"b{i}", "NoEffect", *["Beneficial"] * 4, kls=(1.0, 0.5))
        truth[f"b{i}"] = "Beneficial"
    runs["h"] = labelled("h", "Beneficial", "Harmful")
    truth["h"] = "Harmful"
    return runs, truth


def test_report_is_byte_identical_for_the_same_records(tmp_path: Path) -> None:
    runs, truth = small_benchmark()
    first = evaluate(runs, truth, PAPER_THRESHOLDS, extra={"Trim-and-fill": {"n0": "NoEffect"}},
                     resamples=500)
    second = evaluate(runs, truth, PAPER_THRESHOLDS,
                      extra={"Trim-and-fill": {"n0": "NoEffect"}}, resamples=500)
    a = write_report(first, tmp_path / "a", "t", {"split": "test"})
    b = write_report(second, tmp_path / "b", "t", {"split": "test"})
    assert [p.name for p in a] == [p.name for p in b]
    for left, right in zip(a, b, strict=True):
        assert left.read_bytes() == right.read_bytes(), left.name
    names = {p.name for p in a}
    assert {"main.md", "main.csv", "ablation.md", "ablation.csv", "claims.md", "curves.csv",
            "harmful.md", "drift_vs_k.png", "noeffect_vs_steps.png",
            "posterior_curves.png", "report.md"} <= names
    main = (tmp_path / "a" / "main.md").read_text()
    assert "Trim-and-fill (applicable 12.5%)" in main  # 1 of the 8 evaluated queries
    assert first.metrics["k=20"].n == 8 and first.harmful["k=20"].n == 1


def test_evaluate_on_a_small_benchmark_by_hand() -> None:
    runs, truth = small_benchmark()
    result = evaluate(runs, truth, PAPER_THRESHOLDS, resamples=500)
    # KL < 0.01 fires at step 2 for the NoEffect queries only: all four right, no drift
    kl = result.metrics["KL-only"]
    assert kl.per_class == {"Beneficial": 1.0, "NoEffect": 1.0}
    # k=20 reads to the end: every NoEffect query drifted to Beneficial
    k20 = result.metrics["k=20"]
    assert k20.per_class == {"Beneficial": 1.0, "NoEffect": 0.0}
    assert k20.drift_rate == 0.5
    assert result.class_drift == {"Beneficial": 0.0, "NoEffect": 1.0}
    assert kl.mcnemar_p == pytest.approx(2 / 2**4)  # 4 discordant pairs, all one way


def test_claims_are_checked_on_the_numbers() -> None:
    runs, truth = small_benchmark()
    claims = check_claims(evaluate(runs, truth, PAPER_THRESHOLDS, resamples=200).metrics)
    assert all(isinstance(c, Claim) for c in claims) and len(claims) == 5
    by_text = {c.text: c.holds for c in claims}
    assert by_text["DACG NoEffect accuracy exceeds k = 20 by >= 15 pp"] is True
    mcnemar = "McNemar exact p < 0.05 for DACG vs k = 20, DACG the more accurate"
    assert by_text[mcnemar] is False  # n = 8 is too few
    # a significant difference holds the claim only when DACG is the more accurate
    metrics = dict(evaluate(runs, truth, PAPER_THRESHOLDS, resamples=200).metrics)
    reference = metrics["k=20"].accuracy
    for accuracy, holds in ((reference + 0.1, True), (reference - 0.1, False)):
        metrics["DACG"] = replace(metrics["DACG"], mcnemar_p=0.01, accuracy=accuracy)
        assert {c.text: c.holds for c in check_claims(metrics)}[mcnemar] is holds


# --- the command line -------------------------------------------------------------------

def write_benchmark(tmp_path: Path) -> tuple[Path, Path]:
    runs, truth = small_benchmark()
    records = tmp_path / "records.jsonl"
    for steps in runs.values():
        write_steps(records, steps)
    queries = tmp_path / "queries.jsonl"
    queries.write_text("".join(json.dumps({"id": q, "label": label, "split": "test"}) + "\n"
                               for q, label in truth.items()))
    return records, queries


def test_bench_replay_and_report_from_the_command_line(tmp_path: Path) -> None:
    records, queries = write_benchmark(tmp_path)
    runner = CliRunner()
    missing = runner.invoke(app, ["bench", "replay", str(records), "--queries", str(queries),
                                  "--prm", "none", "--thresholds", str(tmp_path / "none.json")])
    assert missing.exit_code == 1  # never a silent fall back to the paper's defaults
    assert missing.stderr == f"error: {tmp_path / 'none.json'}: No such file or directory\n"
    shown = runner.invoke(app, ["bench", "replay", str(records), "--queries", str(queries),
                                "--prm", "none"])
    assert shown.exit_code == 0, shown.output
    assert "KL-only" in shown.output and "Oracle" in shown.output
    out = tmp_path / "report"
    written = runner.invoke(app, ["bench", "report", str(records), "--queries", str(queries),
                                  "--prm", "none", "--out", str(out), "--benchmark", "none"])
    assert written.exit_code == 0, written.output
    assert (out / "report.md").is_file() and (out / "drift_vs_k.png").stat().st_size > 1000
    assert "Trim-and-fill" not in (out / "main.md").read_text()
    other = runner.invoke(app, ["bench", "report", str(records), "--queries", str(queries),
                                "--prm", "none", "--out", str(out)])
    assert other.exit_code == 1  # the trim-and-fill baseline reads the wrong benchmark
    assert "9 recorded queries are not in the benchmark 'simulated'" in other.output


@pytest.mark.parametrize("args, message", [
    (["--split", "tset"], "unknown split"),
    (["--queries", "missing.jsonl"], "no such file"),
    (["--split", "validation"], "no recorded query of the validation split"),
])
def test_bench_replay_bad_input_is_one_line(tmp_path: Path, args: list[str],
                                            message: str) -> None:
    records, queries = write_benchmark(tmp_path)
    result = CliRunner().invoke(app, ["bench", "replay", str(records), "--queries",
                                      str(queries), "--prm", "none", *args])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_bench_tune_reads_only_the_validation_split(tmp_path: Path) -> None:
    records, queries = write_benchmark(tmp_path)  # every query is a test query
    result = CliRunner().invoke(app, ["bench", "tune", str(records), "--queries",
                                      str(queries), "--prm", "none",
                                      "--out", str(tmp_path / "t.json")])
    assert result.exit_code == 1
    assert "no recorded query of the validation split" in result.output
    assert not (tmp_path / "t.json").exists()


# --- MedEvidence ------------------------------------------------------------------------

def me_step(t: int, label: str, findings: tuple[tuple[str, int, float], ...] = (),
            query: str = "0", read: tuple[str, ...] = ()) -> StepRecord:
    """A MedEvidence step: direct a -> b findings (pmid, polarity, confidence) and the
    PMIDs read (the findings' PMIDs when not given)."""
    evidence = [{"pmid": p, "head": "a", "tail": "b", "polarity": pol, "confidence": c}
                for p, pol, c in findings]
    return replace(step(t, label, query=query), new_evidence=evidence,
                   retrieved_pmids=list(read or dict.fromkeys(p for p, _, _ in findings)))


def test_five_way_mapping_by_hand() -> None:
    # p1 finds +1 at 0.6, p2 finds 0 at 0.2 (share of +1: 0.6 / 0.8 = 0.75); a mediator
    # row a -> m is not a direct finding; p3 is read but gives no finding
    mediator = {"pmid": "p3", "head": "a", "tail": "m", "polarity": -1, "confidence": 0.9}
    run = [me_step(1, "NoEvidence", read=("p0",)),
           me_step(2, "Increases", (("p1", 1, 0.6),)),
           replace(me_step(3, "Increases", (("p2", 0, 0.2), ("p1", 1, 0.3))),
                   retrieved_pmids=["p2", "p3"]),
           ]
    run[2].new_evidence.append(mediator)
    facts = StudyFacts({"p1": 100, "p2": 50, "p3": 1000})
    assert FiveWay().answer(run[:1], facts) == "insufficient data"  # no path
    assert FiveWay().answer(run, facts) == "higher"
    assert FiveWay(FirmnessRule(min_studies=3)).answer(run, facts) == "insufficient data"
    assert FiveWay(FirmnessRule(min_studies=2)).answer(run, facts) == "higher"
    assert FiveWay(FirmnessRule(min_share=0.8)).answer(run, facts) == "uncertain effect"
    assert FiveWay(FirmnessRule(min_share=0.7)).answer(run, facts) == "higher"
    assert FiveWay(FirmnessRule(min_support=0.7)).answer(run, facts) == "uncertain effect"
    # the participants threshold judges a null answer: the same reading ending in NoEffect
    null_run = [replace(s, label="NoEffect") for s in run]
    # participants of every study read, p3 included: 100 + 50 + 1000
    assert FiveWay(FirmnessRule(min_participants=1151)).answer(null_run, facts) == (
        "uncertain effect")
    assert FiveWay(FirmnessRule(min_participants=1150)).answer(null_run, facts) == (
        "no difference")
    # at step 2 only p1 was read: 100 participants
    assert FiveWay(FirmnessRule(min_participants=101)).answer(null_run[:2], facts) == (
        "uncertain effect")
    assert FiveWay(FirmnessRule(min_participants=100)).answer(null_run[:2], facts) == (
        "no difference")
    # a direction found by few participants stands
    assert FiveWay(FirmnessRule(min_participants=10**6)).answer(run, facts) == "higher"
    # no study read states its size: the participants threshold does not apply
    assert FiveWay(FirmnessRule(min_participants=10**6)).answer(null_run, StudyFacts()) == (
        "no difference")
    # the design of the studies read: none randomised (p1 observational, the others
    # silent) is uncertain; one randomised study read (p3, no finding of its own) is not
    observational = StudyFacts(randomised={"p1": False})
    assert FiveWay().answer(run, observational) == "uncertain effect"
    assert FiveWay().answer(run, StudyFacts(randomised={"p1": False, "p3": True})) == "higher"
    # p3 is not read at step 2, so only the observational p1 states a design
    assert FiveWay().answer(run[:2], StudyFacts(randomised={"p1": False, "p3": True})) == (
        "uncertain effect")
    # p0, p1, p2 and p3 were read; p1 and p2 gave a direct finding: 2 of 4
    assert FiveWay(FirmnessRule(min_reporting=0.51)).answer(run, facts) == "insufficient data"
    assert FiveWay(FirmnessRule(min_reporting=0.5)).answer(run, facts) == "higher"
    assert FiveWay().answer([me_step(1, "NoEffect", (("p", 0, 0.5),))], StudyFacts()) == (
        "no difference")
    assert FiveWay().answer([me_step(1, "Decreases", (("p", -1, 0.5),))], StudyFacts()) == (
        "lower")


def test_a_question_against_a_control_needs_a_study_with_one() -> None:
    # question "0" asks against a control; p1 and p2 compared active treatments only, p3
    # (not read until step 3) had a placebo arm; question "9" does not ask against one
    run = [me_step(1, "Decreases", (("p1", -1, 0.6),)),
           me_step(2, "Decreases", (("p2", -1, 0.5),)),
           me_step(3, "Decreases", (("p3", 0, 0.2),))]
    facts = StudyFacts(control_arms={"0": {"p1": False, "p2": False, "p3": True}})
    assert FiveWay().answer(run[:2], facts) == "insufficient data"
    assert FiveWay().answer(run, facts) == "lower"
    other = [replace(s, query_id="9") for s in run[:2]]
    assert FiveWay().answer(other, facts) == "lower"


def test_study_facts_mark_the_control_arms_of_questions_against_a_control(
        tmp_path: Path) -> None:
    def row(qid: str, comparator: str, abstracts: dict[str, str]) -> str:
        return json.dumps({
            "question_id": qid, "answer": "higher",
            "question": f"Is pain higher, lower, or the same when comparing zinc to "
                        f"{comparator}?",
            "sources": {p: {"title": "t", "content": a, "date": "2001"}
                        for p, a in abstracts.items()}})
    data = tmp_path / "q.jsonl"
    data.write_text("\n".join([
        row("0", "placebo", {"1": "Zinc versus acetic acid.", "2": "Zinc or placebo."}),
        row("1", "surgery", {"3": "Zinc versus surgery."}),  # not against a control
    ]) + "\n", encoding="utf-8")
    facts = study_facts(read_medevidence(data))
    assert facts.control_arms == {"0": {"1": False, "2": True}}


def test_medevidence_tunes_on_even_ids_and_reports_odd_ones() -> None:
    assert halves(["1", "2", "3", "10"]) == (["2", "10"], ["1", "3"])
    # every question: one study finding no difference at 0.9; even ones are uncertain
    # exactly when small (50 and 80 participants against 500), so 100 participants is the
    # first grid point to get all three right
    facts = StudyFacts({"0": 50, "2": 80, "4": 500, "1": 300, "3": 120})
    runs = {q: [me_step(1, "NoEffect", ((q, 0, 0.9),), q)] for q in facts.participants}
    gold = {"0": "uncertain effect", "2": "uncertain effect", "4": "no difference",
            "1": "no difference", "3": "lower"}
    stops = dict.fromkeys(runs, 1)
    row = evaluate_policy(runs, stops, gold, facts)
    assert row.mapping == FiveWay(FirmnessRule(1, 0.0, 0.0, 100))
    assert row.tuning_accuracy == 1.0
    # "3" is answered no difference
    assert (row.held_out_n, row.held_out_accuracy) == (2, 0.5)
    assert row.recall["no difference"] == 1.0 and row.recall["lower"] == 0.0
    assert row.all_accuracy == pytest.approx(4 / 5)
    # 3-way on the three definite questions: the label at the stop, no mapping involved
    assert (row.three_way_n, row.three_way_accuracy) == (3, pytest.approx(2 / 3))


def test_across_reviews_scores_a_mapping_on_reviews_it_was_not_tuned_on() -> None:
    # every question has one study of 50 participants finding no difference; review A's
    # two questions are "no difference", review B's "uncertain effect" (odd ids, the
    # held-out half, take no part)
    runs = {q: [me_step(1, "NoEffect", ((q, 0, 0.9),), q)] for q in ("0", "2", "4", "6", "1")}
    facts = StudyFacts(dict.fromkeys(runs, 50))
    gold = {"0": "no difference", "2": "no difference", "4": "uncertain effect",
            "6": "uncertain effect", "1": "lower"}
    reviews = {"0": "A", "2": "A", "4": "B", "6": "B", "1": "A"}
    stops = dict.fromkeys(runs, 1)
    # tuned on all four, the best grid point gets two right (small is either uncertain or
    # not); tuned on A (no participants threshold) B is answered no difference, tuned on B
    # (100 participants) A is answered uncertain: none right on the side it was not tuned
    # on
    assert evaluate_policy(runs, stops, gold, facts).tuning_accuracy == 0.5
    assert across_reviews(runs, stops, gold, facts, reviews, splits=3) == (0.0, 0.0)
    assert across_reviews(runs, stops, gold, facts, dict.fromkeys(runs, "A")) is None


def test_a_question_not_understood_is_scored_as_wrong() -> None:
    facts = StudyFacts({"0": 500, "1": 500})
    runs = {q: [me_step(1, "Increases", ((q, 1, 0.9),), q)] for q in facts.participants}
    gold = {"0": "higher", "1": "higher", "3": "higher", "4": "lower"}
    row = evaluate_policy(runs, dict.fromkeys(runs, 1), gold, facts, unanswered=["3", "4"])
    assert row.tuning_accuracy == 1.0  # the tuning half holds only what was asked
    assert (row.held_out_n, row.held_out_accuracy) == (2, 0.5)  # "1" right, "3" wrong
    assert row.all_accuracy == 0.5
    assert (row.three_way_n, row.three_way_accuracy) == (4, 0.5)
    wrong = ledger(runs, dict.fromkeys(runs, 1), gold, FiveWay(), facts, {}, ["3", "4"])
    assert [(w.question_id, w.cause) for w in wrong] == [("3", "not understood"),
                                                        ("4", "not understood")]


def ledger_runs() -> tuple[dict[str, list[StepRecord]], dict[str, str]]:
    """One question per cause of the ledger (and one right), with the review's answers."""
    runs = {
        # right: not in the ledger
        "0": [me_step(1, "Increases", (("a", 1, 0.5),), "0")],
        # no study gave a direct finding
        "1": [me_step(1, "NoEvidence", read=("b",), query="1")],
        # findings, none of them the review's direction
        "2": [me_step(1, "NoEffect", (("c", 0, 0.5),), "2")],
        # wrong at the stop (step 1), right after every study (step 2)
        "3": [me_step(1, "NoEffect", (("d", 0, 0.5),), "3"),
              me_step(2, "Decreases", (("e", -1, 0.9),), "3")],
        # a study found the review's direction, the pooled label is another
        "4": [me_step(1, "NoEffect", (("f", 0, 0.9), ("g", -1, 0.2)), "4")],
        # the label is right, the judgement of firmness is not
        "5": [me_step(1, "Increases", (("h", 1, 0.1),), "5")],
        # the review is uncertain, the answer definite
        "6": [me_step(1, "Increases", (("i", 1, 0.9),), "6")],
    }
    gold = {"0": "higher", "1": "higher", "2": "higher", "3": "lower", "4": "lower",
            "5": "higher", "6": "uncertain effect"}
    return runs, gold


def test_ledger_files_each_wrong_answer_under_its_cause() -> None:
    facts = StudyFacts()
    runs, gold = ledger_runs()
    stops = {q: 1 for q in runs}
    wrong = ledger(runs, stops, gold, FiveWay(FirmnessRule(min_support=0.3)), facts,
                   {"2": True})
    assert [(w.question_id, w.cause) for w in wrong] == [
        ("1", "no finding"), ("2", "reading"), ("3", "stopped early"), ("4", "pooling"),
        ("5", "firmness"), ("6", "firmness")]  # in question order
    assert [s.pmid for s in wrong[3].studies] == ["f", "g"]
    assert wrong[0].studies[0].polarity is None  # read, no finding
    table = counts_markdown(wrong, len(runs))
    assert "| reading | 1 | 0 | 1 |" in table  # flagged fulltext
    assert "| firmness | 1 | 1 | 0 |" in table
    assert "6 wrong of 7 questions." in table


def test_ceilings_by_hand() -> None:
    runs, gold = ledger_runs()
    mapping = FiveWay(FirmnessRule(min_support=0.3))
    stops = dict.fromkeys(runs, 1)
    gold["7"] = "uncertain effect"  # never asked: wrong in all three
    wrong = ledger(runs, stops, gold, mapping, StudyFacts(), {}, ["7"])
    c = ceilings(wrong, runs, stops, mapping, StudyFacts(), questions=8)
    # right now: only "0". Read the review's way, each study's finding takes the review's
    # direction and the rule needs summed confidence >= 0.3: "0" (0.5), "2" (0.5), "3"
    # (0.5 at the stop), "4" (0.9 + 0.2); not "1" (no finding), "5" (0.1) nor "6" (not
    # definite, answered wrong). With every judgement right: the labels of "0" and "5"
    # are the review's, and "6" is not definite.
    assert (c.questions, c.right, c.reading, c.firmness) == (8, 1, 4, 3)
    assert ceilings_text(c) == (
        "Right now: 1 (12.5%) of 8. With every study read the review's way (the body of "
        "evidence otherwise as read): 4 (50.0%). With every definite / uncertain / "
        "insufficient judgement right (the labels as read): 3 (37.5%).\n")


def test_majority_note_counts_the_majority_answer() -> None:
    gold = {"0": "higher", "1": "no difference", "2": "no difference", "3": "lower"}
    assert majority_note(gold) == ("Majority answer ('no difference', 2 of 4): 50.0% on the "
                                   "held-out half, 50.0% on all of dev.\n")

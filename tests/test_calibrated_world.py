"""The calibrated world (issue 16): each mechanism does what its parameter says, the fit
reads only baseline targets, the baseline statistics are what a hand count gives, and the
surrogate's posterior is the pipeline's."""

from __future__ import annotations

import ast
import inspect
import json
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from pipeline.model import Label, Polarity, normalise_name
from pipeline.simulation import fit as fit_module
from pipeline.simulation import targets
from pipeline.simulation.benchmark import (
    build_benchmark,
    calibrated_benchmark,
    load_benchmark,
    write_benchmark,
)
from pipeline.simulation.calibrated import (
    CalibratedLiterature,
    Calibration,
    finding_probabilities,
    plan_calibrated,
)
from pipeline.simulation.surrogate import direct_posterior, measure_reading_model, trajectory
from pipeline.simulation.targets import PAPER_TARGETS, POLICY_ROWS, baseline_statistics
from pipeline.simulation.vocabulary import SimulationError
from pipeline.simulation.world import SimConfig, SimQuery
from pipeline.trajectory import StepRecord

SMALL = (40, 10, 20)
QUIET = dict(relevance_decay=0.0, noise=0.0, effect_sd=0.0)


@pytest.fixture(scope="module")
def queries() -> list[SimQuery]:
    return calibrated_benchmark(0, Calibration(median_reports=12), SMALL)


def _studies(queries: list[SimQuery], cal: Calibration) -> list:
    return [s for q in queries for s in plan_calibrated(q, 0, cal)]


def test_same_queries_as_the_original_world_for_a_seed() -> None:
    original = build_benchmark(0, SimConfig(), SMALL)
    calibrated = build_benchmark(0, Calibration().sim_config(), SMALL)
    assert [(q.id, q.intervention.name, q.outcome.name, q.label, q.split) for q in original] \
        == [(q.id, q.intervention.name, q.outcome.name, q.label, q.split) for q in calibrated]


def test_quiet_world_is_all_on_target(queries: list[SimQuery]) -> None:
    kinds = Counter(s.key.kind for s in _studies(queries, Calibration(**QUIET)))
    assert kinds["offtarget"] == 0 and kinds["trial"] > 0


def test_relevance_decays_with_rank(queries: list[SimQuery]) -> None:
    """P(on target at rank r) = exp(-decay r): with decay 0.3, rank 0 is always on
    target and ranks >= 5 are so at most exp(-1.5) = 22% of the time (plus noise)."""
    cal = Calibration(**{**QUIET, "relevance_decay": 0.3})
    by_rank: dict[bool, list[bool]] = {True: [], False: []}
    for q in queries:
        plan = [s for s in plan_calibrated(q, 0, cal) if s.key.kind != "review"]
        by_rank[True].append(plan[0].key.kind != "offtarget")
        by_rank[False] += [s.key.kind != "offtarget" for s in plan[5:]]
    assert all(by_rank[True])
    assert sum(by_rank[False]) / len(by_rank[False]) < 0.3


def test_literature_sizes_follow_median_and_spread() -> None:
    """Log-normal sizes: the median is median_reports, and a wider spread gives more
    one-study literatures (P(size < 1.5) = Phi(log(1.5 / 8) / sd))."""
    from statistics import NormalDist, median

    narrow = calibrated_benchmark(0, Calibration(median_reports=8, size_sd=0.3))
    wide = calibrated_benchmark(0, Calibration(median_reports=8, size_sd=1.2))
    assert median(q.n_reports for q in narrow) == 8
    ones = sum(q.n_reports == 1 for q in wide) / len(wide)
    assert abs(ones - NormalDist().cdf(math.log(1.5 / 8) / 1.2)) < 0.03
    assert not any(q.n_reports == 1 for q in narrow)


def test_noise_is_undirected(queries: list[SimQuery]) -> None:
    noisy = [s for s in _studies(queries, Calibration(**{**QUIET, "noise": 1.0}))
             if s.key.kind != "review"]
    shares = Counter(s.key.reported and s.key.reported // abs(s.key.reported) for s in noisy)
    # a random direction each: thirds, whatever the truth (binomial sd ~ 2.5% here)
    assert all(abs(n / len(noisy) - 1 / 3) < 0.08 for n in shares.values())


def test_finding_probabilities_follow_the_rank_gradient() -> None:
    cal = Calibration(null_favourable=0.5, power=0.8, rank_gradient=0.5)
    assert finding_probabilities(Label.NO_EFFECT, 0.5, 0.0, cal)[0] == pytest.approx(0.5)
    assert finding_probabilities(Label.NO_EFFECT, 0.0, 0.0, cal)[0] == pytest.approx(0.25)
    assert finding_probabilities(Label.BENEFICIAL, 1.0, 0.0, cal)[0] == pytest.approx(0.99)
    # a logit shift of log 3 turns 1/2 into 3/4
    assert finding_probabilities(Label.NO_EFFECT, 0.5, math.log(3), cal)[0] == \
        pytest.approx(0.75)


def test_off_target_abstracts_never_name_the_queried_outcome(queries: list[SimQuery]) -> None:
    cal = Calibration(**{**QUIET, "relevance_decay": 0.5})
    source = CalibratedLiterature(queries, 0, cal)
    seen = 0
    for q in queries:
        for study in plan_calibrated(q, 0, cal):
            if study.key.kind != "offtarget":
                continue
            abstract = source.render(study, q, random.Random(study.key.pmid))
            text = normalise_name(f"{abstract.title} {abstract.text}".replace(
                q.population, ""))  # "women at risk of preterm birth" is a population
            assert not any(normalise_name(f) in text for f in q.outcome.forms
                           if len(f) > 3), (q.outcome.name, abstract.text)
            seen += 1
    assert seen > 20


def test_calibrated_benchmark_round_trips(tmp_path: Path) -> None:
    cal = Calibration(relevance_decay=0.1, size_sd=0.9, noise=0.1)
    manifest = write_benchmark(tmp_path, 0, sizes=SMALL, calibration=cal)
    assert manifest["world"] == "paper" and manifest["calibration"]["noise"] == 0.1
    queries, source = load_benchmark(tmp_path)
    assert isinstance(source, CalibratedLiterature)
    written = [json.loads(line) for line in (tmp_path / "abstracts.jsonl").open()]
    served = [a for t in source.topic_ids for a, _ in source.literature(t)]
    assert [(w["pmid"], w["abstract"]) for w in written] == [(a.pmid, a.text) for a in served]
    original = write_benchmark(tmp_path / "o", 0, sizes=SMALL)
    assert "world" not in original and "calibration" not in original


@pytest.mark.parametrize("bad", [{"noise": 1.5}, {"relevance_decay": -0.1},
                                 {"median_reports": 0.0}])
def test_impossible_calibrations_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(SimulationError):
        Calibration(**bad)


# ---------------------------------------------------------------------------------------
# Targets and the fit's inputs


def test_no_stopping_policy_is_a_target() -> None:
    names = {t.name for t in PAPER_TARGETS}
    assert not any(name.startswith(policy) for name in names for policy in POLICY_ROWS)
    assert all(name.split()[0] in ("k=1", "k=3", "k=5", "k=10", "k=20", "Oracle", "median",
                                   "q(Ben)", "trim-and-fill") for name in names)


def test_the_fit_reads_only_the_baseline_targets() -> None:
    """The fit module imports nothing but the baseline targets from the evaluation side:
    no policy, threshold, PRM or replay of a stopping rule."""
    tree = ast.parse(inspect.getsource(fit_module))
    imported = {(node.module, alias.name) for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) for alias in node.names}
    modules = {m for m, _ in imported}
    assert not any(m and (m.startswith("pipeline.stopping") or m.startswith(
        "pipeline.evaluation")) for m in modules)
    target_source = inspect.getsource(targets)
    for policy in ("KLOnly", "PRMOnly", "DACGPolicy", "RewardModel", "Thresholds"):
        assert policy not in target_source


def _step(q: str, t: int, label: str, q_ben: float) -> StepRecord:
    rest = (1.0 - q_ben) / 2
    return StepRecord(q, t, [], [], {}, [], {"Beneficial": q_ben, "NoEffect": rest,
                                            "Harmful": rest}, True, label, 0.0, {}, {}, "")


def test_baseline_statistics_by_hand() -> None:
    """Two NoEffect and two Beneficial queries whose counts are done by hand."""
    runs = {
        "a": [_step("a", 1, "NoEffect", 0.1), _step("a", 2, "Beneficial", 0.6),
              _step("a", 3, "Beneficial", 0.7)],           # NoE, right at 1, drifts by 3
        "b": [_step("b", 1, "Beneficial", 0.8)],           # NoE, never right, runs dry
        "c": [_step("c", 1, "NoEffect", 0.2), _step("c", 2, "Beneficial", 0.9)],  # Ben
        "d": [_step("d", 1, "Beneficial", 0.9)],           # Ben, right at once
    }
    truth = {"a": "NoEffect", "b": "NoEffect", "c": "Beneficial", "d": "Beneficial"}
    stats = baseline_statistics(runs, truth, {"a": True, "b": False, "c": True, "d": True})
    assert stats["k=1 NoE"] == 0.5 and stats["k=1 Ben"] == 0.5
    assert stats["k=3 NoE"] == 0.0 and stats["k=3 Ben"] == 1.0
    assert stats["k=3 drift"] == 0.25                      # only a drifted
    assert stats["k=20 steps"] == (3 + 1 + 2 + 1) / 4
    assert stats["Oracle NoE"] == 0.5 and stats["Oracle Ben"] == 1.0
    assert stats["k=20 NoE class drift"] == 1.0            # a reached, then lost it
    assert stats["k=20 Ben class drift"] == 0.0
    assert stats["median first correct"] == 1.0            # firsts a 1, c 2, d 1
    assert stats["q(Ben) NoE step 1"] == pytest.approx((0.1 + 0.8) / 2)
    assert stats["q(Ben) NoE step 14"] == pytest.approx((0.7 + 0.8) / 2)
    assert stats["trim-and-fill applicable"] == 0.75
    assert set(stats) == {t.name for t in PAPER_TARGETS}


# ---------------------------------------------------------------------------------------
# The surrogate


def test_direct_posterior_is_the_boltzmann_posterior_by_hand() -> None:
    """Two paths, beliefs 0.8 (+1) and 0.5 (0), rho = 1, beta = 1.5, eps = 0.05."""
    post = direct_posterior({1: 0.8, 0: 0.5}, Polarity.INCREASES, ("E1", "E2"))
    w_pos, w_null = (0.8 * math.exp(-1)) ** 1.5, (0.5 * math.exp(-1)) ** 1.5
    expected = 0.05 / 3 + 0.95 * w_pos / (w_pos + w_null)
    assert post.as_dict()["Beneficial"] == pytest.approx(expected)
    assert post.label is Label.BENEFICIAL
    assert direct_posterior({}, Polarity.INCREASES, ("E1", "E2")).label is Label.NO_EVIDENCE


def test_surrogate_reads_as_the_model_says(queries: list[SimQuery]) -> None:
    """A reading model that always reads a null at s = 0.5: every informed step is
    NoEffect, and noisy-OR after n reads is 1 - 0.5^n."""
    model = {r: [((0, 0.5), 1)] for r in (1, 0, -1)}
    q = next(q for q in queries if q.label is Label.BENEFICIAL)
    steps, read = trajectory(q.id, plan_calibrated(q, 0, Calibration(**QUIET)), q.direction,
                             model, 0)
    assert read >= 1 and {s.label for s in steps} <= {"NoEffect", "NoEvidence"}


def test_reading_model_counts_what_was_read() -> None:
    from pipeline.simulation.world import StudyKey

    keys = {p: StudyKey(p, "Q1", "h", "t", "trial", i, 100, r)
            for i, (p, r) in enumerate((("p1", 1), ("p2", 0), ("p3", 0)))}
    step = StepRecord("Q1", 1, ["p1", "p2", "p3"], [
        {"head": "e1", "tail": "e2", "polarity": 1, "confidence": 0.7, "pmid": "p1"},
        {"head": "e1", "tail": "e2", "polarity": 1, "confidence": 0.9, "pmid": "p1"},
        {"head": "e1", "tail": "e2", "polarity": 0, "confidence": 0.6, "pmid": "p2"},
        {"head": "e1", "tail": "mediator", "polarity": 1, "confidence": 0.9, "pmid": "p3"},
    ], {}, [], {}, True, "Beneficial", 0.0, {}, {}, "")
    model = measure_reading_model({"Q1": [step]}, keys, {"Q1": ("e1", "e2")})
    assert model[1] == [((1, 0.9), 1)]
    assert dict(model[0]) == {(0, 0.6): 1, None: 1}


def test_loss_counts_fitted_targets_in_standard_errors() -> None:
    """At the targets the loss is 0; one fitted share off by its SE adds 1; the unfitted
    single pass adds nothing, however far off. SE of 40% of 70: sqrt(0.24 / 70)."""
    from pipeline.simulation.targets import loss

    exact = {t.name: t.value for t in PAPER_TARGETS}
    assert loss(exact) == 0.0
    off = dict(exact, **{"k=20 NoE": 0.4 + math.sqrt(0.4 * 0.6 / 70), "k=1 NoE": 0.0})
    assert loss(off) == pytest.approx(1.0)


# ---------------------------------------------------------------------------------------
# The Bayes probe


def test_probe_with_pure_noise_returns_the_prior() -> None:
    from pipeline.simulation.probe import PRIOR, label_probabilities

    probs = label_probabilities([(1, 0.2), (0, 0.7)], Calibration(noise=1.0))
    assert list(probs.values()) == pytest.approx(list(PRIOR))


def test_probe_by_hand_without_heterogeneity() -> None:
    """One favourable finding at u = 1/2 (g = 1): likelihoods 0.9, 0.6 and 0.1 (spin
    (0.6 - 0.5) g for Harmful) times the priors 70, 70, 33."""
    from pipeline.simulation.probe import label_probabilities

    cal = Calibration(null_favourable=0.6, power=0.9, rank_gradient=0.0, effect_sd=0.0,
                      noise=0.0)
    probs = label_probabilities([(1, 0.5)], cal)
    joint = [70 * 0.9, 70 * 0.6, 33 * 0.1]
    assert probs["Beneficial"] == pytest.approx(joint[0] / sum(joint))
    assert probs["Harmful"] == pytest.approx(joint[2] / sum(joint))


def test_probe_quadrature_matches_numerical_integration() -> None:
    """With heterogeneous effects, P(Beneficial | one null finding) by Gauss-Hermite equals
    scipy's adaptive quadrature of the same integral."""
    from scipy import integrate, stats

    from pipeline.simulation.probe import PRIOR, finding_likelihood, label_probabilities

    cal = Calibration(null_favourable=0.6, power=0.8, rank_gradient=0.3, effect_sd=0.9,
                      noise=0.1)
    findings = [(0, 0.3), (1, 0.8)]

    def evidence(label: Label) -> float:
        def integrand(s: float) -> float:
            return (math.prod(finding_likelihood(v, label, u, s, cal) for v, u in findings)
                    * stats.norm.pdf(s, scale=cal.effect_sd))
        return integrate.quad(integrand, -10, 10)[0]

    joint = [p * evidence(lab) for p, lab in zip(PRIOR, (Label.BENEFICIAL, Label.NO_EFFECT,
                                                         Label.HARMFUL), strict=True)]
    probs = label_probabilities(findings, cal)
    assert probs["Beneficial"] == pytest.approx(joint[0] / sum(joint), rel=1e-4)

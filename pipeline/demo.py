"""`dacg demo`: the main result in seconds. Every Beneficial/NoEffect query of the
calibrated world's test split is read for the full budget on an in-memory embedded store,
then k = 20 and DACG (the shipped PRM and the thresholds frozen on validation) are
replayed on the same steps; one NoEffect question is then shown with its paths and PMIDs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from pipeline.evaluation.metrics import RESAMPLES
from pipeline.evaluation.replay import Outcome, Thresholds, stop_outcome
from pipeline.resources import shipped
from pipeline.stopping.policies import DACGPolicy, FixedBudget, StoppingPolicy
from pipeline.trajectory import StepRecord

WORLD_PRM = "data/prm-paper"  # shipped (pipeline.resources), like the world itself
WORLD_THRESHOLDS = "data/eval/thresholds-paper.json"
CLASSES = ("Beneficial", "NoEffect")


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class Row:
    """One policy on the demo's queries: NoEffect accuracy, drift and mean steps, each
    with its 95% bootstrap interval."""

    name: str
    noeffect: Estimate
    drift: Estimate
    steps: Estimate
    accuracy: Estimate


def _estimate(values: Sequence[float], seed: int = 0) -> Estimate:
    """The mean with its 95% percentile-bootstrap interval (10,000 resamples, seeded)."""
    data = np.asarray(values, dtype=float)
    if data.min() == data.max():
        return Estimate(float(data[0]), float(data[0]), float(data[0]))
    ci = stats.bootstrap((data,), np.mean, n_resamples=RESAMPLES, method="percentile",
                         random_state=np.random.default_rng(seed)).confidence_interval
    return Estimate(float(data.mean()), float(ci.low), float(ci.high))


def summarise_policy(name: str, outcomes: Sequence[Outcome]) -> Row:
    return Row(name,
               _estimate([o.correct for o in outcomes if o.truth == "NoEffect"]),
               _estimate([o.drifted for o in outcomes]),
               _estimate([o.stop for o in outcomes]),
               _estimate([o.correct for o in outcomes]))


def demo_policies(thresholds: Thresholds) -> dict[str, StoppingPolicy]:
    return {"k=20": FixedBudget(20),
            "DACG": DACGPolicy(thresholds.delta, thresholds.alpha, thresholds.alpha_c)}


def replay_demo(runs: Mapping[str, Sequence[StepRecord]], truth: Mapping[str, str],
                thresholds: Thresholds) -> dict[str, list[Outcome]]:
    return {name: [stop_outcome(policy, runs[q], truth[q]) for q in sorted(runs)]
            for name, policy in demo_policies(thresholds).items()}


def worked_question(outcomes: Mapping[str, Sequence[Outcome]]) -> str | None:
    """A NoEffect query DACG gets right and k = 20 gets wrong (the drift it avoids), else
    any NoEffect query DACG gets right."""
    full = {o.query_id: o for o in outcomes["k=20"]}
    right = [o for o in outcomes["DACG"] if o.truth == "NoEffect" and o.correct]
    drifted = [o for o in right if not full[o.query_id].correct]
    chosen = drifted or right
    return chosen[0].query_id if chosen else None


def evidence_at(steps: Sequence[StepRecord], stop: int) -> list[tuple[str, str, int, str, str]]:
    """(head, tail, polarity, PMID, sentence) of the evidence on the stop step's top paths,
    read up to the stop, in reading order."""
    edges = {(a, b, p) for path in steps[stop - 1].top_paths
             for a, b, p in zip(path["nodes"], path["nodes"][1:], path["polarities"],
                                strict=False)}
    return [(e["head"], e["tail"], int(e["polarity"]), e["pmid"], e.get("sentence", ""))
            for s in steps[:stop] for e in s.new_evidence
            if (e["head"], e["tail"], int(e["polarity"])) in edges]


def record_test_split(on_query: Callable[[], None] | None = None,
                      ) -> tuple[dict[str, list[StepRecord]], dict[str, str], dict[str, str]]:
    """Read every Beneficial/NoEffect test query of the calibrated world for the full
    budget (no stopping), scored by the calibrated world's PRM. Returns the runs, the
    true labels and each query's question."""
    from pipeline.controller import Controller
    from pipeline.extraction.extractor import default_extractor
    from pipeline.graph.embedded_store import EmbeddedStore
    from pipeline.model import Polarity
    from pipeline.simulation.benchmark import paper_world
    from pipeline.stopping.prm import RewardModel

    queries, literature = paper_world()
    chosen = [q for q in queries if q.split == "test" and q.label.value in CLASSES]
    store, extractor = EmbeddedStore(), default_extractor()
    model = RewardModel.load(shipped(WORLD_PRM))
    runs: dict[str, list[StepRecord]] = {}
    questions: dict[str, str] = {}
    for sim in chosen:
        question = sim.query()
        run = Controller(store, literature, extractor, None, model).run(question, sim.id)
        store.drop(run.run_id)
        runs[sim.id] = run.steps
        want = "increase" if question.direction == Polarity.INCREASES else "decrease"
        questions[sim.id] = (f"does {question.intervention.name} {want} "
                             f"{question.outcome.name}?")
        if on_query:
            on_query()
    return runs, {q.id: q.label.value for q in chosen}, questions

"""The agent loop on a scripted source and extractor: each abstract's text is its triples
("head > tail : polarity : confidence" per line), so the loop is tested on its own."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from pipeline.controller import Controller
from pipeline.graph.embedded_store import EmbeddedStore
from pipeline.inference.features import FEATURE_NAMES, FEATURE_VERSION
from pipeline.model import Abstract, Entity, Evidence, Label, Polarity, Query, make_evidence
from pipeline.recordings import read_trajectories, write_steps
from pipeline.retrieval.source import EmptyResult, ListCursor, SearchConstraints
from pipeline.stopping.policies import (
    PAPER_THRESHOLDS,
    FixedBudget,
    dacg_policy,
    policy_from_name,
    replay,
)


class ScriptedSource:
    """Literature per (intervention, outcome) id pair, one abstract per step."""

    def __init__(self, literature: dict[tuple[str, str], list[str]]) -> None:
        self.literature = literature
        self.searches: list[tuple[str, str]] = []

    def search(self, query: Query, constraints: SearchConstraints | None = None) -> ListCursor:
        key = (query.intervention.id, query.outcome.id)
        self.searches.append(key)
        if key not in self.literature:
            raise EmptyResult(f"nothing on {key}")
        texts = self.literature[key]
        return ListCursor([Abstract(f"{key[0][:3]}{i}", "t", text, 2020)
                           for i, text in enumerate(texts)], 1)


class ScriptedExtractor:
    def extract(self, abstract: Abstract, query: Query,
                mediators: Sequence[Entity] = ()) -> list[Evidence]:
        rows = []
        for line in abstract.text.splitlines():
            pair, polarity, confidence = line.split(" : ")
            head, tail = pair.split(" > ")
            rows.append(make_evidence(head, tail, int(polarity), float(confidence),
                                      abstract.pmid, sentence=line))
        return rows


ZINC = Query(Entity.from_name("zinc"), Entity.from_name("cold"),
             direction=Polarity.DECREASES)


def run(literature: dict, policy: str | None = None, budget: int = 20) -> tuple:
    source = ScriptedSource(literature)
    store = EmbeddedStore()
    controller = Controller(store, source, ScriptedExtractor(),
                            policy=policy_from_name(policy, PAPER_THRESHOLDS) if policy else None,
                            budget=budget, rules=dacg_policy(PAPER_THRESHOLDS))
    return controller.run(ZINC, "q1"), source, store


def test_full_budget_records_every_step_with_named_features() -> None:
    texts = ["zinc > cold : -1 : 0.6"] * 3 + ["zinc > cold : 0 : 0.5"] * 3
    result, _, store = run({("zinc", "cold"): texts})
    assert [s.step for s in result.steps] == [1, 2, 3, 4, 5, 6]
    assert result.stop.reason == "source_dry" and result.stop.step == 6
    first = result.steps[0]
    assert first.informed and first.label == "Beneficial"
    assert list(first.features) == list(FEATURE_NAMES)
    assert first.feature_version == FEATURE_VERSION
    assert first.features["direct_paths"] == 1 and first.features["abstracts_read"] == 1
    assert result.steps[3].features["direct_paths"] == 2  # the null edge is a second path
    assert result.steps[-1].graph["edges"] == 2
    assert store.stats(result.run_id).pmids == 6  # the run's graph stays inspectable


def test_direct_study_features_are_kept_online() -> None:
    # step 1: favourable (-1) at 0.5 and null at 0.8 from one PMID: it counts once, as
    # null (its most confident direct triple); a mediator triple is not a direct study.
    texts = ["zinc > cold : -1 : 0.5\nzinc > cold : 0 : 0.8\nzinc > il-6 : -1 : 0.9",
             "zinc > cold : -1 : 0.6", "zinc > cold : -1 : 0.6"]
    result, _, _ = run({("zinc", "cold"): texts})
    first, second, third = (s.features for s in result.steps)
    assert (first["direct_studies"], first["favourable_studies"], first["null_studies"]) == \
        (1.0, 0.0, 1.0)
    assert first["label_side"] == 0.0 and first["label_support_share"] == 1.0
    assert (third["direct_studies"], third["favourable_studies"]) == (3.0, 2.0)
    labels = [s.label for s in result.steps]
    for t, features in enumerate((first, second, third), 1):
        assert features["label_persistence"] == labels[:t].count(labels[t - 1]) / t
    assert third["mean_log_size"] == pytest.approx(math.log(10))  # no stated sample sizes


def test_kl_stops_once_the_posterior_settles() -> None:
    result, _, _ = run({("zinc", "cold"): ["zinc > cold : -1 : 0.6"] * 10}, policy="kl")
    # step 1 leaves the uniform prior (large KL); from step 2 the label is settled
    assert result.stop.reason == "kl"
    assert result.stop.step == 2
    assert result.posterior.label is Label.BENEFICIAL
    assert result.steps[1].rules["kl"] and not result.steps[0].rules["kl"]


def test_uninformed_steps_never_look_converged() -> None:
    texts = ["zinc > taste : 1 : 0.2"] * 5
    result, _, _ = run({("zinc", "cold"): texts}, policy="kl")
    assert all(not s.informed and not s.rules["kl"] for s in result.steps)
    assert result.stop.reason == "source_dry" and result.posterior.label is Label.NO_EVIDENCE


def test_noevidence_expands_through_a_mediator_to_a_two_hop_path() -> None:
    literature = {("zinc", "cold"): ["zinc > immunity : 1 : 0.7", "zinc > taste : 1 : 0.3"],
                  ("immunity", "cold"): ["immunity > cold : -1 : 0.8"]}
    result, source, _ = run(literature)
    assert ("immunity", "cold") in source.searches
    assert result.steps[0].expanded == ["immunity -> cold"]
    assert result.posterior.label is Label.BENEFICIAL  # (+1)(-1) = -1, desired decrease
    assert [p.nodes for p in result.paths] == [("zinc", "immunity", "cold")]


def test_empty_search_is_noevidence_with_no_steps() -> None:
    result, _, _ = run({})
    assert result.steps == [] and result.posterior.label is Label.NO_EVIDENCE
    assert result.stop.reason == "source_dry"


def test_recorded_trajectory_replays_to_the_same_stop(tmp_path: Path) -> None:
    texts = ["zinc > cold : -1 : 0.4", "zinc > cold : 0 : 0.6", "zinc > cold : -1 : 0.5",
             "zinc > cold : -1 : 0.5", "zinc > cold : -1 : 0.5"]
    online, _, _ = run({("zinc", "cold"): texts}, policy="kl")
    full, _, _ = run({("zinc", "cold"): texts})
    path = tmp_path / "run.jsonl"
    write_steps(path, full.steps)
    steps = read_trajectories(path)["q1"]
    assert steps == full.steps
    offline = replay(policy_from_name("kl", PAPER_THRESHOLDS), steps)
    assert (offline.step, offline.reason) == (online.stop.step, online.stop.reason)
    assert steps[offline.step - 1].label == online.posterior.label.value
    assert replay(FixedBudget(3), steps).step == 3
    assert json.loads(path.read_text().splitlines()[0])["query_id"] == "q1"


@pytest.mark.parametrize("budget", [1, 3])
def test_budget_caps_the_run(budget: int) -> None:
    result, _, _ = run({("zinc", "cold"): ["zinc > cold : -1 : 0.6"] * 5}, budget=budget)
    assert len(result.steps) == budget and result.stop.reason == "budget"

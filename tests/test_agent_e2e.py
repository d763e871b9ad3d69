"""The agent end to end on a simulated query: real extractor, real Neo4j, recorded
trajectory replayed without the store, and the same trajectory on the embedded store."""

from __future__ import annotations

import uuid
from functools import cache
from pathlib import Path

import pytest
from neo4j import Driver

from pipeline.controller import Controller, RunResult
from pipeline.extraction.extractor import default_extractor
from pipeline.graph.embedded_store import EmbeddedStore
from pipeline.graph.neo4j_store import Neo4jStore
from pipeline.graph.store import GraphStore
from pipeline.recordings import read_trajectories, write_steps
from pipeline.simulation.benchmark import PAPER_SIZES, build_benchmark
from pipeline.simulation.world import SimConfig, SimQuery
from pipeline.sources import simulated_source
from pipeline.stopping.policies import DACGPolicy, replay

pytestmark = pytest.mark.neo4j


@cache
def chosen_queries() -> tuple[SimQuery, ...]:
    """A NoEffect query whose literature outlasts the stop, and one of each other label."""
    queries = [q for q in build_benchmark(0, SimConfig(), PAPER_SIZES) if q.split == "test"]
    return tuple(next(q for q in queries if q.label.value == label and q.n_reports >= 8)
                 for label in ("NoEffect", "Beneficial", "Harmful"))


def run(store: GraphStore, sim: SimQuery, policy: DACGPolicy | None) -> RunResult:
    controller = Controller(store, simulated_source(), default_extractor(), policy)
    return controller.run(sim.query(), sim.id, run_id=f"e2e-{sim.id}-{uuid.uuid4().hex[:6]}")


def test_simulated_query_stops_on_neo4j_and_replays_offline(neo4j_driver: Driver,
                                                            tmp_path: Path) -> None:
    sim = chosen_queries()[0]
    online = run(Neo4jStore(neo4j_driver), sim, DACGPolicy())
    assert online.stop.reason == "kl" and 1 < online.stop.step < len(online.steps) + 1

    records, _, _ = neo4j_driver.execute_query(
        "MATCH (h:Entity {ns: $ns})-[r:CAUSES]->() RETURN count(r) AS edges, "
        "sum(r.evidence_count) AS evidence", ns=online.run_id)
    assert records[0]["edges"] == online.steps[-1].graph["edges"] > 0
    assert records[0]["evidence"] == online.steps[-1].graph["evidence"]

    path = tmp_path / "run.jsonl"
    write_steps(path, online.steps)
    steps = read_trajectories(path)[sim.id]
    offline = replay(DACGPolicy(), steps)
    assert (offline.step, offline.reason) == (online.stop.step, online.stop.reason)
    assert steps[offline.step - 1].label == online.posterior.label.value


@pytest.mark.parametrize("index", [0, 1, 2])
def test_embedded_and_neo4j_give_the_same_trajectory(neo4j_driver: Driver,
                                                     index: int) -> None:
    sim = chosen_queries()[index]
    on_neo4j = run(Neo4jStore(neo4j_driver), sim, None)
    embedded = run(EmbeddedStore(), sim, None)
    assert len(on_neo4j.steps) == len(embedded.steps) >= 8
    for a, b in zip(on_neo4j.steps, embedded.steps, strict=True):
        assert a.label == b.label and a.informed == b.informed
        assert a.posterior.keys() == b.posterior.keys()
        for label, p in a.posterior.items():
            assert p == pytest.approx(b.posterior[label], abs=1e-9)
        assert a.kl == pytest.approx(b.kl, abs=1e-9)
        assert [p["nodes"] for p in a.top_paths] == [p["nodes"] for p in b.top_paths]
        for name, value in a.features.items():
            assert value == pytest.approx(b.features[name], abs=1e-9), name

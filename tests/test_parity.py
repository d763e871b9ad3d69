"""The embedded store and Neo4j give identical beliefs, paths and strengths, to the last bit
(exact float equality: both compute the same formulas in the same operation order). The
namespace's mean belief, a feature summed over all edges in each store's own order, agrees to
1e-12 relative."""

from __future__ import annotations

import random
import uuid

import pytest
from _synthetic import random_stream
from neo4j import Driver

from pipeline.graph.embedded_store import EmbeddedStore
from pipeline.graph.neo4j_store import Neo4jStore
from pipeline.graph.store import GraphStore, batches

pytestmark = pytest.mark.neo4j


def snapshot(store: GraphStore, ns: str, pairs: list[tuple[str, str]],
             queries: list[tuple[str, str]]) -> tuple[dict, dict, object]:
    edges = {(e.head, e.tail, e.polarity): (e.belief, e.pmids)
             for e in store.edges(ns, pairs)}
    paths = {q: [(p.nodes, p.polarities, p.beliefs, p.strength)
                 for p in store.paths(ns, *q, limit=50)] for q in queries}
    return edges, paths, store.stats(ns)


@pytest.mark.parametrize("seed, rows, batch", [(1, 4000, 700), (2, 6000, 6000), (3, 3000, 97)])
def test_same_stream_same_graph(neo4j_driver: Driver, seed: int, rows: int,
                                batch: int) -> None:
    stream = random_stream(rows, entities=40, pmids=300, seed=seed)
    ns = f"parity-{uuid.uuid4().hex[:10]}"
    embedded, neo4j = EmbeddedStore(), Neo4jStore(neo4j_driver)
    for chunk in batches(stream, batch):
        embedded.write(ns, chunk)
        neo4j.write(ns, chunk)
    pairs = sorted({(e.head.id, e.tail.id) for e in stream})
    rng = random.Random(seed)
    names = sorted({e.head.id for e in stream})
    queries = [("e0", "e1"), *[tuple(rng.sample(names, 2)) for _ in range(20)]]
    edges_e, paths_e, stats_e = snapshot(embedded, ns, pairs, queries)
    edges_n, paths_n, stats_n = snapshot(neo4j, ns, pairs, queries)

    assert len(edges_e) > 500 and edges_e.keys() == edges_n.keys()
    for key, (belief, pmids) in edges_e.items():
        assert edges_n[key][0] == belief
        assert edges_n[key][1] == pmids
    assert sum(len(p) for p in paths_e.values()) > 100
    for q in queries:
        assert [(n, p) for n, p, _, _ in paths_n[q]] == [(n, p) for n, p, _, _ in paths_e[q]]
        for (_, _, beliefs_n, strength_n), (_, _, beliefs_e, strength_e) in zip(
                paths_n[q], paths_e[q], strict=True):
            assert beliefs_n == beliefs_e
            assert strength_n == strength_e
    assert stats_n.mean_belief == pytest.approx(stats_e.mean_belief, rel=1e-12, abs=0)
    assert (stats_n.nodes, stats_n.edges, stats_n.evidence, stats_n.pmids,
            stats_n.entity_pairs, stats_n.conflicting_pairs) == (
        stats_e.nodes, stats_e.edges, stats_e.evidence, stats_e.pmids, stats_e.entity_pairs,
        stats_e.conflicting_pairs)
    neo4j.drop(ns)

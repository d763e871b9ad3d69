"""GraphStore behaviour, run on the embedded store and on a real Neo4j (SPEC §2-3)."""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Iterator

import pytest
from _synthetic import random_stream

from pipeline.graph.embedded_store import EmbeddedStore
from pipeline.graph.evidence_file import parse_evidence_row
from pipeline.graph.store import GraphStore
from pipeline.model import Evidence, InvalidEvidence, make_evidence, normalise_name


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store(request: pytest.FixtureRequest) -> Iterator[GraphStore]:
    if request.param == "embedded":
        embedded = EmbeddedStore()
        yield embedded
        embedded.close()
        return
    from pipeline.graph.neo4j_store import Neo4jStore

    yield Neo4jStore(request.getfixturevalue("neo4j_driver"))


@pytest.fixture
def ns() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


def ev(head: str, tail: str, polarity: int, confidence: float, pmid: str,
       sentence: str = "") -> Evidence:
    return make_evidence(head, tail, polarity, confidence, pmid, sentence=sentence)


def beliefs(store: GraphStore, ns: str, pairs: list[tuple[str, str]]) -> dict:
    return {(e.head, e.tail, e.polarity): (e.belief, e.pmids) for e in store.edges(ns, pairs)}


def test_noisy_or_over_distinct_pmids(store: GraphStore, ns: str) -> None:
    summary = store.write(ns, [ev("Zinc", "cold duration", -1, 0.5, "1"),
                               ev("zinc", "Cold  Duration", -1, 0.2, "2"),
                               ev("zinc", "cold duration", -1, 0.4, "1")])
    assert (summary.rows, summary.new_edges, summary.new_evidence) == (3, 1, 2)
    (edge,) = store.edges(ns, [("zinc", "cold duration")])
    assert edge.belief == pytest.approx(1 - 0.5 * 0.8, abs=1e-15)
    assert edge.pmids == ("1", "2")


def test_evidence_items_carry_sentences_in_first_seen_order(store: GraphStore,
                                                             ns: str) -> None:
    store.write(ns, [ev("zinc", "cold", -1, 0.3, "9", sentence="first"),
                     ev("zinc", "cold", -1, 0.5, "2", sentence="second")])
    store.write(ns, [ev("zinc", "cold", -1, 0.6, "9", sentence="better")])
    items = store.evidence(ns, [("zinc", "cold", -1), ("zinc", "cold", 1)])
    assert list(items) == [("zinc", "cold", -1)]
    assert [(i.pmid, i.confidence, i.sentence, i.year) for i in items[("zinc", "cold", -1)]] == [
        ("9", 0.6, "better", None), ("2", 0.5, "second", None)]


def test_higher_confidence_for_a_pmid_replaces_the_lower(store: GraphStore, ns: str) -> None:
    store.write(ns, [ev("zinc", "cold", -1, 0.3, "1")])
    store.write(ns, [ev("zinc", "cold", -1, 0.6, "1")])
    (edge,) = store.edges(ns, [("zinc", "cold")])
    assert edge.belief == pytest.approx(0.6, abs=1e-15)


def test_reingesting_the_same_evidence_changes_no_belief(store: GraphStore, ns: str) -> None:
    stream = random_stream(1500, seed=3)
    store.write(ns, stream)
    pairs = sorted({(e.head.id, e.tail.id) for e in stream})
    first, stats = beliefs(store, ns, pairs), store.stats(ns)
    summary = store.write(ns, stream)
    assert summary.new_edges == 0 and summary.new_evidence == 0
    assert beliefs(store, ns, pairs) == first
    assert store.stats(ns) == stats


def test_conflicting_polarities_are_separate_edges(store: GraphStore, ns: str) -> None:
    store.write(ns, [ev("a", "b", 1, 0.5, "1"), ev("a", "b", -1, 0.4, "2"),
                     ev("a", "b", 0, 0.3, "3")])
    found = beliefs(store, ns, [("a", "b")])
    assert {key[2] for key in found} == {-1, 0, 1}
    stats = store.stats(ns)
    assert (stats.edges, stats.entity_pairs, stats.conflicting_pairs) == (3, 1, 1)


def test_direct_and_two_hop_paths_with_strength(store: GraphStore, ns: str) -> None:
    store.write(ns, [ev("zinc", "cold", -1, 0.8, "1"),
                     ev("zinc", "immune response", 1, 0.7, "2"),
                     ev("immune response", "cold", -1, 0.6, "3"),
                     ev("cold", "zinc", 1, 0.9, "4")])  # wrong direction: not a path
    paths = store.paths(ns, "zinc", "cold")
    assert [p.nodes for p in paths] == [("zinc", "cold"), ("zinc", "immune response", "cold")]
    assert paths[0].strength == pytest.approx(0.8 * math.exp(-1), abs=1e-15)
    assert paths[1].strength == pytest.approx(0.7 * 0.6 * math.exp(-2), abs=1e-15)
    assert paths[1].polarity == -1


def test_paths_are_capped_and_ordered(store: GraphStore, ns: str) -> None:
    rows = [ev("x", f"m{i}", 1, 0.1 * (i + 1), str(i)) for i in range(8)]
    rows += [ev(f"m{i}", "y", 1, 0.5, str(100 + i)) for i in range(8)]
    store.write(ns, rows)
    paths = store.paths(ns, "x", "y", limit=5)
    assert [p.nodes[1] for p in paths] == ["m7", "m6", "m5", "m4", "m3"]


def test_zero_confidence_edges_make_no_path(store: GraphStore, ns: str) -> None:
    store.write(ns, [ev("a", "b", 1, 0.0, "1")])
    assert store.paths(ns, "a", "b") == []


def test_namespaces_are_isolated_and_droppable(store: GraphStore, ns: str) -> None:
    other = ns + "-other"
    store.write(ns, [ev("a", "b", 1, 0.5, "1")])
    store.write(other, [ev("a", "b", -1, 0.5, "1")])
    assert [p.polarities for p in store.paths(ns, "a", "b")] == [(1,)]
    store.drop(other)
    assert store.stats(other).nodes == 0
    assert store.stats(ns).edges == 1


def test_cypher_text_in_names_is_stored_as_data(store: GraphStore, ns: str) -> None:
    store.write(ns, [ev("a", "b", 1, 0.5, "1")])
    hostile = ["x'}) DETACH DELETE n //", 'y"}) MATCH (n) DETACH DELETE n', "{z: $ns}`"]
    store.write(ns, [ev(name, "b", 1, 0.5, "2") for name in hostile])
    stats = store.stats(ns)
    assert (stats.nodes, stats.edges) == (5, 4)
    ids = [normalise_name(name) for name in hostile]
    assert {e.head for e in store.edges(ns, [(i, "b") for i in ids])} == set(ids)


# Every rule an evidence row must meet, once each, at the one place that checks them (the
# row parser `dacg ingest` and the stores' writers share); that a bad row anywhere in a file
# stops the whole file, in one line, before the store is touched is tests/test_cli.py's and
# tests/test_faults.py's.
@pytest.mark.parametrize("bad, reason", [
    (dict(confidence=1.0), "confidence must be in [0, 1)"),
    (dict(confidence=-0.1), "confidence"),
    (dict(confidence=float("nan")), "confidence"),
    (dict(head=""), "empty"),
    (dict(head="   "), "empty"),
    (dict(tail="x" * 10_000), "10000 characters long (at most 300)"),
    (dict(head="\ufdfa" * 20), "once normalised (at most 300)"),
    (dict(head="drug\u202eevil"), "bidirectional control"),
    (dict(tail="out\u200fcome"), "bidirectional control"),
    (dict(tail="\u2066outcome"), "bidirectional control"),
    (dict(polarity=2), "polarity"),
    (dict(polarity="strongly up"), "polarity"),
    (dict(polarity=True), "unknown polarity True"),
    (dict(pmid=""), "PMID"),
    (dict(pmid=True), "PMID must be a short alphanumeric id, got True"),
    (dict(pmid="12\u0663"), "PMID must be a short alphanumeric id"),
    (dict(pmid=None), "missing field(s) pmid"),
    (dict(head="a", tail="A"), "same entity"),
])
def test_bad_rows_are_rejected_before_the_store(bad: dict, reason: str) -> None:
    row = {k: v for k, v in (dict(head="a", tail="b", polarity=1, confidence=0.5, pmid="1")
                             | bad).items() if v is not None}
    with pytest.raises(InvalidEvidence, match=re.escape(reason)):
        parse_evidence_row(row)


def test_equal_strength_paths_are_ordered_by_node_ids_then_polarities(store: GraphStore,
                                                                      ns: str) -> None:
    """Ties: node ids first (so a->m->b before a->n->b even though its polarities sort
    later), then polarities (-1 before +1 on the same nodes); the same on both stores."""
    store.write(ns, [ev("a", "m", 1, 0.5, "1"), ev("m", "b", 1, 0.5, "2"),
                     ev("a", "n", -1, 0.5, "3"), ev("n", "b", -1, 0.5, "4"),
                     ev("a", "b", 1, 0.25, "5"), ev("a", "b", -1, 0.25, "6")])
    paths = store.paths(ns, "a", "b")
    assert [(p.nodes, p.polarities) for p in paths] == [
        (("a", "b"), (-1,)), (("a", "b"), (1,)),
        (("a", "m", "b"), (1, 1)), (("a", "n", "b"), (-1, -1))]

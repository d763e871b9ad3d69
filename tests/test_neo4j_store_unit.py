"""Neo4jStore against a mock driver (as neo4j-graphrag-python tests its stores): each method
sends the right cypher/ file with the right parameters, and maps the records back, with no
server. The behaviour of the queries themselves is tested on a real Neo4j elsewhere."""

from __future__ import annotations

import math
from unittest.mock import MagicMock, call

import pytest

from pipeline.graph import cypher
from pipeline.graph.neo4j_store import Neo4jStore
from pipeline.graph.store import WriteSummary
from pipeline.inference.belief import MAX_BELIEF
from pipeline.inference.paths import hop_discounts
from pipeline.model import (
    CausalPath,
    EdgeBelief,
    Entity,
    Evidence,
    EvidenceItem,
    GraphStats,
    InvalidEvidence,
    Polarity,
)

ZINC = Entity("zinc", "Zinc", grounded=True)
COLD = Entity("common cold", "Common cold")
SLEEP = Entity("sleep", "Sleep", grounded=True)


@pytest.fixture
def driver() -> MagicMock:
    return MagicMock()


def session_of(driver: MagicMock) -> MagicMock:
    """The session object `with driver.session(...) as session` yields."""
    session: MagicMock = driver.session.return_value.__enter__.return_value
    return session


def test_write_sends_schema_then_entities_and_evidence_in_one_transaction(
        driver: MagicMock) -> None:
    evidence = [
        Evidence(ZINC, COLD, Polarity.DECREASES, 0.6, "1", "weak", "rules", 2001, 1),
        Evidence(ZINC, COLD, Polarity.DECREASES, 0.9, "1", "strong", "model", None, 2),
        Evidence(ZINC, COLD, Polarity.DECREASES, 0.5, "2", "other", "rules", 2010, 3),
        Evidence(ZINC, COLD, Polarity.INCREASES, 0.7, "3", "against", "rules", 2012, 3),
        Evidence(COLD, SLEEP, Polarity.DECREASES, 0.8, "4", "hop", "model", 1999, 4),
    ]
    tx = MagicMock()
    result = tx.run.return_value
    result.single.return_value = {"new_evidence": 4}
    result.consume.return_value.counters.relationships_created = 3
    session = session_of(driver)
    session.execute_write.side_effect = lambda work: work(tx)

    summary = Neo4jStore(driver, "db").write("run-1", evidence)

    assert summary == WriteSummary(rows=5, new_edges=3, new_evidence=4)
    driver.session.assert_called_with(database="db")
    assert session.run.call_args_list == [call(statement)
                                          for statement in cypher.statements("schema")]
    # PMID 1 on zinc -| cold keeps its stronger row; a missing year is sent as 0.
    entities = [{"id": "zinc", "name": "Zinc", "grounded": True},
                {"id": "common cold", "name": "Common cold", "grounded": False},
                {"id": "sleep", "name": "Sleep", "grounded": True}]
    edges = [
        {"head": "zinc", "tail": "common cold", "polarity": -1, "items": [
            {"pmid": "1", "confidence": 0.9, "sentence": "strong", "extractor": "model",
             "year": 0, "step": 2},
            {"pmid": "2", "confidence": 0.5, "sentence": "other", "extractor": "rules",
             "year": 2010, "step": 3}]},
        {"head": "zinc", "tail": "common cold", "polarity": 1, "items": [
            {"pmid": "3", "confidence": 0.7, "sentence": "against", "extractor": "rules",
             "year": 2012, "step": 3}]},
        {"head": "common cold", "tail": "sleep", "polarity": -1, "items": [
            {"pmid": "4", "confidence": 0.8, "sentence": "hop", "extractor": "model",
             "year": 1999, "step": 4}]},
    ]
    assert tx.run.call_args_list == [
        call(cypher.query("merge_entities"), ns="run-1", entities=entities),
        call(cypher.query("merge_evidence"), ns="run-1", edges=edges, max_belief=MAX_BELIEF),
    ]


def test_schema_is_set_up_once(driver: MagicMock) -> None:
    session_of(driver).execute_write.return_value = WriteSummary(1, 1, 1)
    store = Neo4jStore(driver)
    row = Evidence(ZINC, COLD, Polarity.DECREASES, 0.9, "1")
    store.write("run-1", [row])
    store.write("run-1", [row])
    assert session_of(driver).run.call_count == len(cypher.statements("schema"))


def test_write_of_nothing_opens_no_session(driver: MagicMock) -> None:
    assert Neo4jStore(driver).write("run-1", []) == WriteSummary(rows=0, new_edges=0,
                                                                  new_evidence=0)
    driver.session.assert_not_called()


def test_paths_sends_the_hop_discounts_and_reads_paths(driver: MagicMock) -> None:
    driver.execute_query.return_value = ([
        {"nodes": ["zinc", "common cold"], "polarities": [-1], "beliefs": [0.8],
         "strength": 0.29},
        {"nodes": ["zinc", "sleep", "common cold"], "polarities": [1, -1],
         "beliefs": [0.5, 0.4], "strength": 0.027}], None, None)

    found = Neo4jStore(driver, "db").paths("run-1", "zinc", "common cold", limit=3)

    assert hop_discounts() == [1.0, math.exp(-1.0), math.exp(-2.0)]
    driver.execute_query.assert_called_once_with(
        cypher.query("paths"), ns="run-1", source="zinc", target="common cold", limit=3,
        discount=hop_discounts(), database_="db", routing_="r")
    assert found == [CausalPath(("zinc", "common cold"), (-1,), (0.8,), 0.29),
                     CausalPath(("zinc", "sleep", "common cold"), (1, -1), (0.5, 0.4), 0.027)]


def test_edges_sends_each_pair_once(driver: MagicMock) -> None:
    driver.execute_query.return_value = ([
        {"head": "zinc", "tail": "common cold", "polarity": -1, "belief": 0.75,
         "pmids": ["1", "2"]}], None, None)

    found = Neo4jStore(driver).edges("run-1", [("zinc", "common cold")] * 2)

    driver.execute_query.assert_called_once_with(
        cypher.query("pair_edges"), ns="run-1", pairs=[["zinc", "common cold"]],
        database_=None, routing_="r")
    assert found == [EdgeBelief("zinc", "common cold", -1, 0.75, ("1", "2"))]


def test_evidence_groups_items_per_edge_and_reads_year_0_as_unknown(
        driver: MagicMock) -> None:
    driver.execute_query.return_value = ([
        {"head": "zinc", "tail": "common cold", "polarity": -1, "pmid": "1",
         "confidence": 0.9, "sentence": "strong", "year": 0},
        {"head": "zinc", "tail": "common cold", "polarity": -1, "pmid": "2",
         "confidence": 0.5, "sentence": "other", "year": 2010}], None, None)

    found = Neo4jStore(driver).evidence("run-1", [("zinc", "common cold", -1)])

    driver.execute_query.assert_called_once_with(
        cypher.query("edge_evidence"), ns="run-1", edges=[["zinc", "common cold", -1]],
        database_=None, routing_="r")
    assert found == {("zinc", "common cold", -1): [EvidenceItem("1", 0.9, "strong", None),
                                                    EvidenceItem("2", 0.5, "other", 2010)]}


def test_stats_reads_the_one_record(driver: MagicMock) -> None:
    driver.execute_query.return_value = ([
        {"nodes": 3, "edges": 4, "evidence": 6, "pmids": 5, "entity_pairs": 2,
         "conflicting_pairs": 1, "mean_belief": 0.5}], None, None)

    stats = Neo4jStore(driver, "db").stats("run-1")

    driver.execute_query.assert_called_once_with(
        cypher.query("stats"), ns="run-1", database_="db", routing_="r")
    assert stats == GraphStats(nodes=3, edges=4, evidence=6, pmids=5, entity_pairs=2,
                               conflicting_pairs=1, mean_belief=0.5)


def test_drop_deletes_one_namespace(driver: MagicMock) -> None:
    Neo4jStore(driver, "db").drop("run-1")

    driver.session.assert_called_once_with(database="db")
    session_of(driver).run.assert_called_once_with(cypher.query("drop_namespace"), ns="run-1")


def test_drop_and_write_refuse_a_bad_namespace_before_touching_the_driver(
        driver: MagicMock) -> None:
    store = Neo4jStore(driver)
    with pytest.raises(InvalidEvidence):
        store.drop("run 1; MATCH (n) DETACH DELETE n")
    with pytest.raises(InvalidEvidence):
        store.write("", [Evidence(ZINC, COLD, Polarity.DECREASES, 0.9, "1")])
    assert driver.mock_calls == []

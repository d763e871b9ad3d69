"""`GraphStore` on Neo4j through the official driver; every query is a file in cypher/.

The driver is passed in (as neo4j-graphrag does) so tests and the CLI decide how it is
built; `connect` builds one from settings and turns connection failures into a one-line
`StoreUnavailable` that names the URI and never the password.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlsplit

from neo4j import Driver, GraphDatabase, ManagedTransaction
from neo4j.exceptions import AuthError, DriverError, Neo4jError

from pipeline.graph import cypher
from pipeline.graph.store import (
    EdgeKey,
    StoreUnavailable,
    WriteSummary,
    check_namespace,
    strongest_per_edge_pmid,
)
from pipeline.inference.belief import MAX_BELIEF
from pipeline.inference.paths import hop_discounts
from pipeline.model import CausalPath, EdgeBelief, Evidence, EvidenceItem, GraphStats
from pipeline.settings import REDACTED, redact_uri

# The driver logs what it then raises; with no handler configured Python would print those
# records on stderr next to our one-line error, so they go nowhere unless a caller asks.
logging.getLogger("neo4j").addHandler(logging.NullHandler())

BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def check_uri(uri: str) -> str:
    """Bolt URIs only, without credentials in them; the message never repeats a secret."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        raise StoreUnavailable("NEO4J_URI is not a valid URI") from None
    if parts.scheme not in BOLT_SCHEMES:
        raise StoreUnavailable(f"NEO4J_URI must start with one of "
                               f"{', '.join(s + '://' for s in BOLT_SCHEMES)} "
                               f"(got {redact_uri(uri)})")
    if "@" in parts.netloc:
        raise StoreUnavailable(f"NEO4J_URI must not hold credentials (got {redact_uri(uri)}); "
                               "set NEO4J_USER and NEO4J_PASSWORD instead")
    return uri


def connect(uri: str, user: str, password: str, database: str | None = None) -> Neo4jStore:
    """Open a driver and check it answers; failures become one-line StoreUnavailable that
    show the URI redacted and never the password."""
    shown = redact_uri(check_uri(uri))

    def reason(error: Exception) -> str:
        text = " ".join(str(error).replace(uri, shown).split())[:300]
        return (text.replace(password, REDACTED) if password else text) or type(error).__name__

    try:
        driver = GraphDatabase.driver(uri, auth=(user, password))
    except (ValueError, DriverError, Neo4jError) as error:
        raise StoreUnavailable(f"invalid Neo4j URI {shown}: {reason(error)}") from None
    try:
        driver.verify_connectivity()
    except AuthError:
        driver.close()
        raise StoreUnavailable(
            f"Neo4j at {shown} rejected the credentials of user {user!r}") from None
    except (DriverError, Neo4jError, OSError) as error:
        driver.close()
        raise StoreUnavailable(f"cannot reach Neo4j at {shown}: {reason(error)}") from None
    try:
        check_server_version(driver.get_server_info().agent)
    except StoreUnavailable as error:
        driver.close()
        raise StoreUnavailable(f"Neo4j at {shown}: {error}") from None
    return Neo4jStore(driver, database)


MIN_VERSION = (5, 23)  # CALL (x) { ... } scoped subqueries (paths.cypher, merge_evidence)


def check_server_version(agent: str) -> tuple[int, int]:
    """The (major, minor) of a server agent string such as "Neo4j/5.26.0"; a server older
    than MIN_VERSION is refused in one line saying what is needed."""
    match = re.fullmatch(r"Neo4j/(\d+)\.(\d+)(?:\..*)?", agent.strip())
    needed = ".".join(map(str, MIN_VERSION))
    if match is None:
        raise StoreUnavailable(f"unrecognised server {agent!r}; DACG needs Neo4j {needed} "
                               "or later")
    version = (int(match[1]), int(match[2]))
    if version < MIN_VERSION:
        raise StoreUnavailable(f"server is Neo4j {version[0]}.{version[1]}; DACG's Cypher "
                               f"(CALL (x) {{...}} subqueries) needs Neo4j {needed} or later")
    return version


UNKNOWN_YEAR = 0  # Neo4j lists cannot hold null


def _batch_parameters(evidence: Sequence[Evidence]) -> tuple[list[dict[str, Any]],
                                                              list[dict[str, Any]]]:
    """Distinct entities, and distinct edges each with its per-PMID items."""
    entities: dict[str, dict[str, Any]] = {}
    edges: dict[tuple[str, str, int], dict[str, Any]] = {}
    for row in strongest_per_edge_pmid(evidence):
        for entity in (row.head, row.tail):
            entities.setdefault(entity.id, {"id": entity.id, "name": entity.name,
                                            "grounded": entity.grounded})
        edge = edges.setdefault(row.edge_key, {"head": row.head.id, "tail": row.tail.id,
                                               "polarity": int(row.polarity), "items": []})
        edge["items"].append({"pmid": row.pmid, "confidence": row.confidence,
                              "sentence": row.sentence, "extractor": row.extractor,
                              "year": row.year or UNKNOWN_YEAR, "step": row.step})
    return list(entities.values()), list(edges.values())


class Neo4jStore:
    """Evidence graph in Neo4j: (:Entity)-[:CAUSES {polarity, belief, pmids, confidences,
    sentences, ...}]->(:Entity), one edge per polarity, its evidence as parallel lists."""

    def __init__(self, driver: Driver, database: str | None = None) -> None:
        """Args:
            driver: an open neo4j driver (the store does not close it before `close`).
            database: the Neo4j database name; None is the server's default database.
        """
        self._driver = driver
        self._database = database
        self._schema_ready = False

    def ensure_schema(self) -> None:
        """Constraints and indexes, set up before the first write (not on connecting, so
        read-only credentials can query)."""
        with self._driver.session(database=self._database) as session:
            for statement in cypher.statements("schema"):
                session.run(statement).consume()
        self._schema_ready = True

    def write(self, namespace: str, evidence: Sequence[Evidence]) -> WriteSummary:
        check_namespace(namespace)
        entities, edges = _batch_parameters(evidence)
        if not edges:
            return WriteSummary(rows=0, new_edges=0, new_evidence=0)
        if not self._schema_ready:
            self.ensure_schema()

        def work(tx: ManagedTransaction) -> WriteSummary:
            tx.run(cypher.query("merge_entities"), ns=namespace, entities=entities).consume()
            result = tx.run(cypher.query("merge_evidence"), ns=namespace, edges=edges,
                            max_belief=MAX_BELIEF)
            new_evidence = result.single(strict=True)["new_evidence"]
            return WriteSummary(rows=len(evidence),
                                new_edges=result.consume().counters.relationships_created,
                                new_evidence=new_evidence)

        with self._driver.session(database=self._database) as session:
            return session.execute_write(work)

    def paths(self, namespace: str, source: str, target: str,
              limit: int = 5) -> list[CausalPath]:
        records, _, _ = self._driver.execute_query(
            cypher.query("paths"), ns=namespace, source=source, target=target, limit=limit,
            discount=hop_discounts(), database_=self._database, routing_="r")
        return [CausalPath(tuple(r["nodes"]), tuple(r["polarities"]), tuple(r["beliefs"]),
                           r["strength"]) for r in records]

    def edges(self, namespace: str, pairs: Iterable[tuple[str, str]]) -> list[EdgeBelief]:
        records, _, _ = self._driver.execute_query(
            cypher.query("pair_edges"), ns=namespace, pairs=[list(p) for p in set(pairs)],
            database_=self._database, routing_="r")
        return [EdgeBelief(r["head"], r["tail"], r["polarity"], r["belief"], tuple(r["pmids"]))
                for r in records]

    def evidence(self, namespace: str,
                 edges: Iterable[EdgeKey]) -> dict[EdgeKey, list[EvidenceItem]]:
        records, _, _ = self._driver.execute_query(
            cypher.query("edge_evidence"), ns=namespace, edges=[list(e) for e in set(edges)],
            database_=self._database, routing_="r")
        found: dict[EdgeKey, list[EvidenceItem]] = {}
        for r in records:
            found.setdefault((r["head"], r["tail"], r["polarity"]), []).append(EvidenceItem(
                r["pmid"], r["confidence"], r["sentence"], r["year"] or None))
        return found

    def stats(self, namespace: str) -> GraphStats:
        records, _, _ = self._driver.execute_query(
            cypher.query("stats"), ns=namespace, database_=self._database, routing_="r")
        r = records[0]
        return GraphStats(nodes=r["nodes"], edges=r["edges"], evidence=r["evidence"],
                          pmids=r["pmids"], entity_pairs=r["entity_pairs"],
                          conflicting_pairs=r["conflicting_pairs"],
                          mean_belief=float(r["mean_belief"]))

    def drop(self, namespace: str) -> None:
        check_namespace(namespace)
        with self._driver.session(database=self._database) as session:
            session.run(cypher.query("drop_namespace"), ns=namespace).consume()

    def namespaces(self) -> list[str]:
        records, _, _ = self._driver.execute_query(
            cypher.query("namespaces"), database_=self._database, routing_="r")
        return [r["ns"] for r in records]

    def close(self) -> None:
        self._driver.close()

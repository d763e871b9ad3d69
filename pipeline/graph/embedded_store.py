"""`GraphStore` in-process, on SQLite: the default when no Neo4j is configured.

SQLite gives what the Neo4j store gets from its server: one transaction per batch (a killed
ingest leaves whole batches only), persistence across commands, and `:memory:` for a run's
scratch graph. Beliefs and strengths are computed with the same formulas, in the same
operation order, as the Cypher, so the two stores' beliefs, paths and strengths agree to the
last bit (the parity test compares them with ==; only the namespace's mean belief, summed in
each store's own order, may differ in the last place).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

from pipeline.graph.store import (
    EdgeKey,
    StoreUnavailable,
    WriteSummary,
    check_namespace,
    strongest_per_edge_pmid,
)
from pipeline.inference.belief import noisy_or
from pipeline.inference.paths import path_order_key, route_strength
from pipeline.model import CausalPath, EdgeBelief, Evidence, EvidenceItem, GraphStats

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entity (
    ns TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, grounded INTEGER NOT NULL,
    PRIMARY KEY (ns, id));
CREATE TABLE IF NOT EXISTS evidence (
    ns TEXT NOT NULL, head TEXT NOT NULL, tail TEXT NOT NULL, polarity INTEGER NOT NULL,
    pmid TEXT NOT NULL, confidence REAL NOT NULL, sentence TEXT, extractor TEXT,
    year INTEGER, step INTEGER,
    PRIMARY KEY (ns, head, tail, polarity, pmid));
CREATE TABLE IF NOT EXISTS edge (
    ns TEXT NOT NULL, head TEXT NOT NULL, tail TEXT NOT NULL, polarity INTEGER NOT NULL,
    belief REAL NOT NULL, pmids TEXT NOT NULL,
    PRIMARY KEY (ns, head, tail, polarity));
CREATE INDEX IF NOT EXISTS edge_by_tail ON edge (ns, tail, head);
"""

_UPSERT_EVIDENCE = """
INSERT INTO evidence (ns, head, tail, polarity, pmid, confidence, sentence, extractor, year, step)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (ns, head, tail, polarity, pmid) DO UPDATE SET
    confidence = excluded.confidence, sentence = excluded.sentence,
    extractor = excluded.extractor, year = excluded.year, step = excluded.step
WHERE excluded.confidence > evidence.confidence
"""

_PMID_SEPARATOR = " "
LOCK_WAIT_SECONDS = 5.0  # how long a store locked by another process is waited for


class EmbeddedStore:
    """Evidence graph in a SQLite file (or memory) inside this process."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        """Args:
            path: the SQLite file (its folder is made if missing), or ":memory:" for a
                scratch store that ends with the process. A file another process holds is
                waited for up to LOCK_WAIT_SECONDS (5 s).
        """
        if str(path) != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError) as error:
                blocker = next((p for p in reversed(Path(path).parents) if p.is_file()),
                               error.filename)
                raise StoreUnavailable(f"embedded store {path}: {blocker} is a file, "
                                       "not a folder") from None
        self._db = sqlite3.connect(str(path), timeout=LOCK_WAIT_SECONDS)
        self._db.executescript(_SCHEMA)

    def write(self, namespace: str, evidence: Sequence[Evidence]) -> WriteSummary:
        check_namespace(namespace)
        rows = strongest_per_edge_pmid(evidence)
        touched = {row.edge_key for row in rows}
        with self._db:  # one transaction: all of the batch or none of it
            # Take the write lock before counting, so a concurrent writer's rows are not
            # counted as ours.
            self._db.execute("BEGIN IMMEDIATE")
            before_edges = self._count("edge", namespace)
            before_evidence = self._count("evidence", namespace)
            self._db.executemany(
                "INSERT OR IGNORE INTO entity VALUES (?, ?, ?, ?)",
                [(namespace, e.id, e.name, int(e.grounded))
                 for row in rows for e in (row.head, row.tail)])
            self._db.executemany(_UPSERT_EVIDENCE, [
                (namespace, r.head.id, r.tail.id, int(r.polarity), r.pmid, r.confidence,
                 r.sentence, r.extractor, r.year, r.step) for r in rows])
            for head, tail, polarity in sorted(touched):
                self._refresh_belief(namespace, head, tail, polarity)
            new_edges = self._count("edge", namespace) - before_edges
            new_evidence = self._count("evidence", namespace) - before_evidence
        return WriteSummary(rows=len(evidence), new_edges=new_edges, new_evidence=new_evidence)

    def _count(self, table: str, namespace: str) -> int:
        (count,) = self._db.execute(
            f"SELECT count(*) FROM {table} WHERE ns = ?", (namespace,)).fetchone()
        return int(count)

    def _refresh_belief(self, namespace: str, head: str, tail: str, polarity: int) -> None:
        """Noisy-OR over the edge's PMIDs in first-seen order (an upsert keeps its rowid),
        the order of the evidence lists that merge_evidence.cypher keeps on the edge."""
        found = self._db.execute(
            "SELECT pmid, confidence FROM evidence WHERE ns = ? AND head = ? AND tail = ? "
            "AND polarity = ? ORDER BY rowid", (namespace, head, tail, polarity)).fetchall()
        belief = noisy_or(confidence for _, confidence in found)
        pmids = _PMID_SEPARATOR.join(pmid for pmid, _ in found)
        self._db.execute(
            "INSERT INTO edge VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (ns, head, tail, polarity) "
            "DO UPDATE SET belief = excluded.belief, pmids = excluded.pmids",
            (namespace, head, tail, polarity, belief, pmids))

    def paths(self, namespace: str, source: str, target: str,
              limit: int = 5) -> list[CausalPath]:
        direct = self._db.execute(
            "SELECT polarity, belief FROM edge WHERE ns = ? AND head = ? AND tail = ? "
            "AND belief > 0", (namespace, source, target)).fetchall()
        two_hop = self._db.execute(
            "SELECT first.tail, first.polarity, first.belief, second.polarity, second.belief "
            "FROM edge AS first JOIN edge AS second "
            "ON second.ns = first.ns AND second.head = first.tail "
            "WHERE first.ns = ? AND first.head = ? AND second.tail = ? "
            "AND first.tail NOT IN (?, ?) AND first.belief > 0 AND second.belief > 0",
            (namespace, source, target, source, target)).fetchall()
        found = [CausalPath((source, target), (p,), (w,), route_strength([w]))
                 for p, w in direct]
        found += [CausalPath((source, via, target), (p1, p2), (w1, w2), route_strength([w1, w2]))
                  for via, p1, w1, p2, w2 in two_hop]
        found.sort(key=lambda p: path_order_key(p.strength, p.nodes, p.polarities))
        return found[:limit]

    def edges(self, namespace: str, pairs: Iterable[tuple[str, str]]) -> list[EdgeBelief]:
        found: list[EdgeBelief] = []
        for head, tail in sorted(set(pairs)):
            for polarity, belief, pmids in self._db.execute(
                    "SELECT polarity, belief, pmids FROM edge WHERE ns = ? AND head = ? "
                    "AND tail = ? ORDER BY polarity", (namespace, head, tail)):
                found.append(EdgeBelief(head, tail, polarity, belief,
                                        tuple(pmids.split(_PMID_SEPARATOR))))
        return found

    def evidence(self, namespace: str,
                 edges: Iterable[EdgeKey]) -> dict[EdgeKey, list[EvidenceItem]]:
        found: dict[EdgeKey, list[EvidenceItem]] = {}
        for head, tail, polarity in sorted(set(edges)):
            rows = self._db.execute(
                "SELECT pmid, confidence, sentence, year FROM evidence WHERE ns = ? AND "
                "head = ? AND tail = ? AND polarity = ? ORDER BY rowid",
                (namespace, head, tail, polarity)).fetchall()
            if rows:
                found[(head, tail, polarity)] = [EvidenceItem(pmid, confidence, sentence or "",
                                                              year) for pmid, confidence,
                                                 sentence, year in rows]
        return found

    def stats(self, namespace: str) -> GraphStats:
        (nodes,) = self._db.execute(
            "SELECT count(*) FROM entity WHERE ns = ?", (namespace,)).fetchone()
        evidence, pmids = self._db.execute(
            "SELECT count(*), count(DISTINCT pmid) FROM evidence WHERE ns = ?",
            (namespace,)).fetchone()
        edges, pairs, conflicting, belief_total = self._db.execute(
            "SELECT coalesce(sum(n), 0), count(*), coalesce(sum(n > 1), 0), "
            "coalesce(sum(total), 0.0) FROM (SELECT count(*) AS n, sum(belief) AS total "
            "FROM edge WHERE ns = ? GROUP BY head, tail)", (namespace,)).fetchone()
        return GraphStats(nodes=nodes, edges=edges, evidence=evidence, pmids=pmids,
                          entity_pairs=pairs, conflicting_pairs=conflicting,
                          mean_belief=belief_total / edges if edges else 0.0)

    def drop(self, namespace: str) -> None:
        check_namespace(namespace)
        with self._db:
            for table in ("entity", "evidence", "edge"):
                self._db.execute(f"DELETE FROM {table} WHERE ns = ?", (namespace,))

    def namespaces(self) -> list[str]:
        return [ns for (ns,) in self._db.execute("SELECT DISTINCT ns FROM entity ORDER BY ns")]

    def close(self) -> None:
        self._db.close()

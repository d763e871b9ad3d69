"""The saved Browser queries (cypher/browser/) on a hand-built graph, through the official
driver with the `:param` values as parameters; and the guide kept in sync with them."""

from __future__ import annotations

import html
import math
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from neo4j import Driver

from pipeline.browse import (
    SAVED_QUERIES,
    STYLE_FILE,
    browser_dir,
    guide_html,
    param_lines,
    saved_query,
)
from pipeline.graph.neo4j_store import Neo4jStore
from pipeline.inference.paths import hop_discounts
from pipeline.model import Evidence, make_evidence

neo4j = pytest.mark.neo4j


def zinc_run() -> list[Evidence]:
    """zinc -> common cold (-1, two PMIDs; 0, one PMID: a conflict) and the two-hop path
    zinc -> immune response (+1) -> common cold (-1)."""
    return [
        make_evidence("Zinc", "common cold", -1, 0.6, "1001", "Zinc shortened colds.",
                      extractor="rules", year=2019, step=1),
        make_evidence("zinc", "Common Cold", -1, 0.5, "1002", "Zinc reduced cold duration.",
                      extractor="rules", step=2),
        make_evidence("zinc", "common cold", 0, 0.3, "1003", "Zinc had no effect.",
                      extractor="llm", year=2021, step=2),
        make_evidence("zinc", "immune response", 1, 0.7, "1004", "Zinc boosts immunity.",
                      step=3),
        make_evidence("immune response", "common cold", -1, 0.6, "1005",
                      "Immunity shortens colds.", step=3),
    ]


def kg_graph() -> list[Evidence]:
    return [make_evidence("vitamin c", "common cold", -1, 0.5, p) for p in ("1", "2", "3")] + [
        make_evidence("zinc", "common cold", -1, 0.9, "4"),
        make_evidence("zinc", "common cold", 1, 0.2, "5"),
    ]


@pytest.fixture(scope="module")
def graph(neo4j_driver: Driver) -> Iterator[dict[str, str]]:
    """The zinc run, another run (must never show up) and a knowledge graph."""
    tag = uuid.uuid4().hex[:10]
    names = {"run": f"run-{tag}", "other": f"other-{tag}", "kg": f"kg-{tag}"}
    store = Neo4jStore(neo4j_driver)
    store.write(names["run"], zinc_run())
    store.write(names["other"], [make_evidence("zinc", "common cold", 1, 0.9, "9")])
    store.write(names["kg"], kg_graph())
    yield names
    for ns in names.values():
        store.drop(ns)


def run(driver: Driver, name: str, **params: Any) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(saved_query(name), params)
    return [record.data() for record in records]


def scalars(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without the graph columns (nodes, relationships, paths), floats rounded."""
    def clean(value: Any) -> Any:
        if isinstance(value, float):
            return round(value, 12)
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return [{k: clean(v) for k, v in row.items() if k not in {"h", "r", "t", "path"}}
            for row in rows]


@neo4j
def test_run_subgraph_is_the_whole_run_and_nothing_else(neo4j_driver: Driver,
                                                        graph: dict[str, str]) -> None:
    rows = run(neo4j_driver, "run_subgraph", run=graph["run"])
    assert [(r["h"]["name"], r["r"][1], r["t"]["name"]) for r in rows] == [
        ("immune response", "CAUSES", "common cold"),
        ("Zinc", "CAUSES", "common cold"),
        ("Zinc", "CAUSES", "common cold"),
        ("Zinc", "CAUSES", "immune response"),
    ]
    records, _, _ = neo4j_driver.execute_query(saved_query("run_subgraph"), run=graph["run"])
    assert [(r["r"]["polarity"], r["r"]["pmids"]) for r in records] == [
        (-1, ["1005"]), (-1, ["1001", "1002"]), (0, ["1003"]), (1, ["1004"])]
    assert {r["r"]["ns"] for r in records} == {graph["run"]}


@neo4j
def test_top_paths_strongest_first_as_the_answer_engine(neo4j_driver: Driver,
                                                        graph: dict[str, str]) -> None:
    rows = run(neo4j_driver, "top_paths", run=graph["run"], source="zinc",
               target="common cold", discount=hop_discounts())
    assert scalars(rows) == [
        {"route": ["Zinc", "common cold"], "polarities": [-1], "beliefs": [0.8], "hops": 1,
         "strength": round(0.8 * math.exp(-1), 12)},
        {"route": ["Zinc", "common cold"], "polarities": [0], "beliefs": [0.3], "hops": 1,
         "strength": round(0.3 * math.exp(-1), 12)},
        {"route": ["Zinc", "immune response", "common cold"], "polarities": [1, -1],
         "beliefs": [0.7, 0.6], "hops": 2, "strength": round(0.7 * 0.6 * math.exp(-2), 12)},
    ]
    engine = Neo4jStore(neo4j_driver).paths(graph["run"], "zinc", "common cold")
    assert [[n["id"] for n in r["path"].nodes] for r in
            neo4j_driver.execute_query(saved_query("top_paths"), run=graph["run"],
                                       source="zinc", target="common cold",
                                       discount=hop_discounts()).records
            ] == [list(p.nodes) for p in engine]
    assert [r["strength"] for r in rows] == pytest.approx([p.strength for p in engine],
                                                          rel=1e-12)


@neo4j
def test_top_paths_keeps_five_and_finds_none_for_unknown_entities(
        neo4j_driver: Driver) -> None:
    ns = f"run-{uuid.uuid4().hex[:10]}"
    store = Neo4jStore(neo4j_driver)
    store.write(ns, [make_evidence("a", "b", 1, 0.9, "1")]
                + [make_evidence("a", f"m{i}", 1, 0.1 * (i + 1), str(10 + i)) for i in range(6)]
                + [make_evidence(f"m{i}", "b", -1, 0.5, str(20 + i)) for i in range(6)])
    try:
        rows = run(neo4j_driver, "top_paths", run=ns, source="a", target="b",
                   discount=hop_discounts())
        assert [r["route"] for r in rows] == [["a", "b"]] + [["a", f"m{i}", "b"]
                                                             for i in (5, 4, 3, 2)]
        assert run(neo4j_driver, "top_paths", run=ns, source="a", target="zz",
                   discount=hop_discounts()) == []
    finally:
        store.drop(ns)


@neo4j
def test_conflicts_lists_each_polarity_of_a_conflicting_pair(neo4j_driver: Driver,
                                                             graph: dict[str, str]) -> None:
    assert scalars(run(neo4j_driver, "conflicts", run=graph["run"])) == [
        {"head": "Zinc", "tail": "common cold", "polarity": -1, "belief": 0.8,
         "evidence_count": 2, "pmids": ["1001", "1002"]},
        {"head": "Zinc", "tail": "common cold", "polarity": 0, "belief": 0.3,
         "evidence_count": 1, "pmids": ["1003"]},
    ]


@neo4j
def test_edge_evidence_unwinds_the_parallel_lists(neo4j_driver: Driver,
                                                  graph: dict[str, str]) -> None:
    rows = run(neo4j_driver, "edge_evidence", run=graph["run"], head="zinc", tail="common cold")
    assert scalars(rows) == [
        {"polarity": -1, "belief": 0.8, "pmid": "1001", "confidence": 0.6,
         "sentence": "Zinc shortened colds.", "extractor": "rules", "year": 2019, "step": 1},
        {"polarity": -1, "belief": 0.8, "pmid": "1002", "confidence": 0.5,
         "sentence": "Zinc reduced cold duration.", "extractor": "rules", "year": None,
         "step": 2},
        {"polarity": 0, "belief": 0.3, "pmid": "1003", "confidence": 0.3,
         "sentence": "Zinc had no effect.", "extractor": "llm", "year": 2021, "step": 2},
    ]
    hop = run(neo4j_driver, "edge_evidence", run=graph["run"], head="immune response",
              tail="common cold")
    assert [(r["polarity"], r["pmid"]) for r in hop] == [(-1, "1005")]


@neo4j
def test_kg_top_edges_most_supported_first(neo4j_driver: Driver,
                                           graph: dict[str, str]) -> None:
    assert scalars(run(neo4j_driver, "kg_top_edges", kg=graph["kg"])) == [
        {"head": "vitamin c", "tail": "common cold", "polarity": -1, "belief": 0.875,
         "evidence_count": 3, "pmids": ["1", "2", "3"]},
        {"head": "zinc", "tail": "common cold", "polarity": -1, "belief": 0.9,
         "evidence_count": 1, "pmids": ["4"]},
        {"head": "zinc", "tail": "common cold", "polarity": 1, "belief": 0.2,
         "evidence_count": 1, "pmids": ["5"]},
    ]


@neo4j
def test_param_lines_are_cypher_literals_of_the_values(neo4j_driver: Driver) -> None:
    """What `dacg browse` prints evaluates to the intended values (Browser runs
    `:param key => expr` as `RETURN expr`), quotes and backslashes included."""
    lines = param_lines("run-1", "Crohn's  Disease", "5'-nucleotidase \\ x")
    values = {}
    for line in lines:
        key, expression = re.fullmatch(r":param (\w+) => (.*);", line).groups()
        records, _, _ = neo4j_driver.execute_query(f"RETURN {expression} AS v")
        values[key] = records[0]["v"]
    assert values == {"run": "run-1", "source": "crohn's disease",
                      "target": "5'-nucleotidase \\ x", "head": "crohn's disease",
                      "tail": "5'-nucleotidase \\ x", "kg": "kg",
                      "discount": [1.0, math.exp(-1), math.exp(-2)]}


def test_every_saved_query_uses_only_the_printed_parameters() -> None:
    printed = {re.match(r":param (\w+)", line).group(1)
               for line in param_lines("r", "a", "b")}
    for name in SAVED_QUERIES:
        used = set(re.findall(r"\$(\w+)", saved_query(name)))
        assert used and used <= printed, name


def test_the_served_guide_holds_the_saved_queries_and_the_style_verbatim() -> None:
    folder = browser_dir()
    guide = guide_html()
    blocks = [html.unescape(b).strip() for b in re.findall(
        r'<pre class="code runnable[^"]*"[^>]*>(.*?)</pre>', guide, re.S)]
    assert blocks[0].splitlines() == [line.replace("run-r", "run-abc") for line in
                                      param_lines("run-r", "zinc", "common cold")]
    assert blocks[1] == ":style " + (folder / STYLE_FILE).read_text(encoding="utf-8").strip()
    assert blocks[2:] == [saved_query(name).strip() for name in SAVED_QUERIES]
    assert guide.count("<slide") == len(blocks)
    served = guide_html(param_lines("run-r", "zinc", "common cold"))
    params = served.split("dacg-params", 1)[1].split("</pre>", 1)[0]
    assert "'run-abc'" not in params and ":param run =&gt; 'run-r';" in params

"""E1 (LLM zero-shot) and E2 (LLM + RAG, 10 abstracts) against chat-completions answers
in the OpenAI format, served by a real HTTP server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.evaluation.llm_baselines import (
    E1,
    E2,
    LLMJudge,
    first_abstracts,
    llm_baselines,
)
from pipeline.evaluation.report import main_table, paper_comparison
from pipeline.extraction.llm import LLMError
from pipeline.simulation.benchmark import build_benchmark
from pipeline.simulation.literature import SimulatedLiterature
from pipeline.simulation.world import SimConfig
from tests.test_llm_extractor import Endpoint

FIXTURES = Path(__file__).parent / "fixtures" / "llm_baselines"


def answer(name: str) -> tuple[int, bytes]:
    return 200, (FIXTURES / name).read_bytes()


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    server = Endpoint()
    yield server
    server.close()


@pytest.fixture(scope="module")
def world() -> tuple[list, SimulatedLiterature]:
    queries = build_benchmark(0, SimConfig(), (10, 4, 6))
    return queries, SimulatedLiterature(queries, 0, SimConfig())


def test_e1_asks_without_abstracts_and_e2_with_the_first_ten(endpoint: Endpoint,
                                                             world: tuple) -> None:
    queries, source = world
    sim = next(q for q in queries if q.n_reports >= 12)
    endpoint.script = [answer("answer_noeffect.json"), answer("answer_fenced_beneficial.json")]
    judge = LLMJudge(endpoint.url, "qwen2.5-7b-instruct", api_key="sk-secret", backoff=0.0)
    labels = llm_baselines(judge, {sim.id: sim.query()}, source)
    assert labels == {E1: {sim.id: "NoEffect"}, E2: {sim.id: "Beneficial"}}
    zero_shot, rag = (r["messages"][1]["content"] for r in endpoint.requests)
    assert "PMID" not in zero_shot and sim.intervention.name in zero_shot
    expected = [a.pmid for a, _ in source.literature(sim.id)[:10]]
    assert [p for p in expected if f"PMID {p}." in rag] == expected
    assert f"PMID {source.literature(sim.id)[10][0].pmid}." not in rag
    assert endpoint.headers[0]["Authorization"] == "Bearer sk-secret"
    assert "sk-secret" not in repr(judge)


def test_an_answer_without_a_label_is_no_answer(endpoint: Endpoint, world: tuple) -> None:
    queries, _ = world
    endpoint.script = [answer("answer_unknown_label.json")]
    judge = LLMJudge(endpoint.url, "m", backoff=0.0)
    assert judge.answer(queries[0].query()) is None


def test_server_errors_are_retried_and_refusals_raise(endpoint: Endpoint,
                                                     world: tuple) -> None:
    queries, _ = world
    endpoint.script = [(503, b"busy"), answer("answer_noeffect.json")]
    judge = LLMJudge(endpoint.url, "m", retries=2, backoff=0.0)
    assert judge.answer(queries[0].query()) == "NoEffect"
    assert len(endpoint.requests) == 2
    endpoint.script = [(401, b"no key")]
    with pytest.raises(LLMError, match="HTTP 401"):
        judge.answer(queries[0].query())


def test_first_abstracts_stops_at_ten(world: tuple) -> None:
    queries, source = world
    sim = max(queries, key=lambda q: q.n_reports)
    assert len(first_abstracts(source, sim.query())) == min(10, len(source.literature(sim.id)))


def test_tables_show_llm_rows_only_with_numbers_else_need_an_endpoint() -> None:
    from pipeline.evaluation.metrics import PolicyMetrics

    def row(acc: float, ben: float, noe: float) -> PolicyMetrics:
        return PolicyMetrics(140, acc, acc - 0.08, acc + 0.08, acc, {"Beneficial": ben,
                             "NoEffect": noe}, 1.0, 0.0, 0.0, 1.0, 0.5)

    metrics = {"k=20": row(0.6, 0.8, 0.4), "DACG": row(0.7, 0.8, 0.6)}
    text = paper_comparison(metrics)
    assert ("| E1 LLM zero-shot (needs an endpoint: DACG_LLM_URL, DACG_LLM_MODEL) | "
            "– / 67.1 | – / 65.1 | – / – | – / 0 | – / 91.4 | – / 42.9 | – / – |") in text
    assert "| DACG | 70.0 / 69.3 |" in text
    assert E1 not in main_table(metrics).markdown()
    with_llm = main_table({**metrics, E2: row(0.5, 0.9, 0.1)}).markdown()
    assert f"| {E2} | 50.0 (42.0–58.0) | 50.0 | – | – | – | 90.0 | 10.0 |" in with_llm
    compared = paper_comparison({**metrics, E2: row(0.5, 0.9, 0.1)})
    assert f"| {E2} | 50.0 / 63.6 | 50.0 / 59.6 |" in compared
    assert f"| {E2} (needs an endpoint" not in compared

"""The optional LLM extractor against recorded chat-completions answers, served by a real
HTTP server on 127.0.0.1: validation of triples, retries, and errors."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pipeline.extraction.llm import LLMError, LLMExtractor
from pipeline.model import Abstract, Entity, Query

FIXTURES = Path(__file__).parent / "fixtures" / "extraction"
ABSTRACT = Abstract("31415", "Zinc lozenges for the common cold", (
    "Zinc lozenges shortened common cold duration compared with placebo (P = 0.002). "
    "Zinc also inhibited rhinovirus replication in nasal lavage. Nausea was more frequent "
    "with zinc (P = 0.01)."), 2021)
QUERY = Query(Entity.from_name("zinc"), Entity.from_name("common cold duration"),
              Entity.from_name("placebo"))


def recorded(name: str) -> tuple[int, bytes]:
    return 200, (FIXTURES / name).read_bytes()


class Endpoint:
    """A local chat-completions server answering from a script of (status, body)."""

    def __init__(self) -> None:
        self.script: list[tuple[int, bytes]] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length", 0))
                endpoint.requests.append(json.loads(self.rfile.read(length)))
                endpoint.headers.append(dict(self.headers))
                status, body = endpoint.script.pop(0) if endpoint.script else (
                    500, b"script exhausted")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    server = Endpoint()
    yield server
    server.close()


def extractor(endpoint: Endpoint, **kwargs: Any) -> LLMExtractor:
    return LLMExtractor(endpoint.url, "qwen2.5-7b-instruct", backoff=0.0, timeout=5,
                        **kwargs)


def test_valid_triples_become_evidence_and_the_rest_is_dropped(endpoint: Endpoint) -> None:
    endpoint.script = [recorded("llm_triples.json")]
    rows = extractor(endpoint).extract(ABSTRACT, QUERY)
    found = {(r.head.id, r.tail.id, int(r.polarity)): r for r in rows}
    # kept: the core finding, a new mediator, nausea with confidence capped below 1;
    # dropped: an invented quote, polarity 2, head == tail, a non-object
    assert set(found) == {("zinc", "common cold duration", -1),
                          ("zinc", "rhinovirus replication", -1), ("zinc", "nausea", 1)}
    core = found[("zinc", "common cold duration", -1)]
    assert core.head is QUERY.intervention and core.tail is QUERY.outcome
    assert (core.pmid, core.year, core.extractor) == ("31415", 2021, "llm:qwen2.5-7b-instruct")
    assert found[("zinc", "nausea", 1)].confidence < 1.0
    body = endpoint.requests[0]
    assert body["model"] == "qwen2.5-7b-instruct" and body["temperature"] == 0
    assert body["response_format"]["type"] == "json_schema"
    assert "Comparator: placebo" in body["messages"][1]["content"]


def test_server_errors_and_prose_are_retried(endpoint: Endpoint) -> None:
    endpoint.script = [(503, b"busy"), recorded("llm_prose.json"), recorded("llm_fenced.json")]
    rows = extractor(endpoint, retries=2).extract(ABSTRACT, QUERY)
    assert [int(r.polarity) for r in rows] == [-1]
    assert len(endpoint.requests) == 3


def test_a_persistent_failure_is_an_llm_error(endpoint: Endpoint) -> None:
    endpoint.script = [(500, b"oops"), (500, b"oops")]
    with pytest.raises(LLMError, match="HTTP 500.*after 2 attempts"):
        extractor(endpoint, retries=1).extract(ABSTRACT, QUERY)


def test_a_refused_request_is_not_retried_and_the_key_stays_secret(
        endpoint: Endpoint) -> None:
    endpoint.script = [(401, b'{"error": "bad key"}')]
    llm = extractor(endpoint, api_key="sk-secret-123", retries=3)
    with pytest.raises(LLMError, match="HTTP 401") as error:
        llm.extract(ABSTRACT, QUERY)
    assert len(endpoint.requests) == 1
    assert endpoint.headers[0]["Authorization"] == "Bearer sk-secret-123"
    assert "sk-secret" not in repr(llm) and "sk-secret" not in str(error.value)


def test_unreachable_endpoint(endpoint: Endpoint) -> None:
    url = endpoint.url
    endpoint.close()
    llm = LLMExtractor(url, "m", retries=0, timeout=2)
    with pytest.raises(LLMError, match="cannot reach"):
        llm.extract(ABSTRACT, QUERY)


def test_empty_abstract_makes_no_request(endpoint: Endpoint) -> None:
    assert extractor(endpoint).extract(Abstract("1", "", "  "), QUERY) == []
    assert endpoint.requests == []


def test_configuration_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                            endpoint: Endpoint) -> None:
    monkeypatch.delenv("DACG_LLM_URL", raising=False)
    with pytest.raises(LLMError, match="DACG_LLM_URL"):
        LLMExtractor.from_env()
    monkeypatch.setenv("DACG_LLM_URL", endpoint.url)
    monkeypatch.setenv("DACG_LLM_MODEL", "m")
    endpoint.script = [recorded("llm_empty.json")]
    assert LLMExtractor.from_env().extract(ABSTRACT, QUERY) == []


def test_dacg_query_with_the_llm_extractor_end_to_end(endpoint: Endpoint,
                                                      tmp_path: Path) -> None:
    """`dacg query --extractor llm` reads DACG_LLM_URL/MODEL/API_KEY, sends each abstract
    to the endpoint and answers from the triples it kept (recorded answers, local server)."""
    from typer.testing import CliRunner

    from pipeline.cli import app

    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"pmid": ABSTRACT.pmid, "title": ABSTRACT.title,
                                  "abstract": ABSTRACT.text, "year": ABSTRACT.year}) + "\n")
    endpoint.script = [recorded("llm_triples.json")] + [recorded("llm_empty.json")] * 20
    secret = "sk-Sentinel-4711"
    result = CliRunner().invoke(app, [
        "query", "zinc", "common cold duration", "--comparator", "placebo", "--direction",
        "decrease", "--source", str(corpus), "--extractor", "llm", "--json", "--explain",
        "--db", str(tmp_path / "g.sqlite")],
        env={"NEO4J_URI": "", "DACG_LLM_URL": endpoint.url, "DACG_LLM_MODEL": "qwen2.5-7b",
             "DACG_LLM_API_KEY": secret})
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["label"] == "Beneficial"
    direct = [e for e in answer["edges"] if (e["head"], e["tail"]) == ("zinc",
                                                                        "common cold duration")]
    assert [(e["polarity"], e["pmids"]) for e in direct] == [(-1, ["31415"])]
    assert direct[0]["evidence"][0]["sentence"].startswith("Zinc lozenges shortened")
    assert endpoint.headers[0]["Authorization"] == f"Bearer {secret}"
    assert "Abstract: Zinc lozenges for the common cold" in (
        endpoint.requests[0]["messages"][1]["content"])
    assert secret not in result.stdout + result.stderr


def test_dacg_query_llm_without_an_endpoint_is_one_line(tmp_path: Path,
                                                       endpoint: Endpoint) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app

    runner = CliRunner()
    args = ["query", "zinc", "cold", "--source", "simulated", "--extractor", "llm",
            "--db", str(tmp_path / "g.sqlite")]
    unset = runner.invoke(app, args, env={"NEO4J_URI": "", "DACG_LLM_URL": "",
                                          "DACG_LLM_MODEL": ""})
    assert unset.exit_code == 1 and unset.stderr.count("\n") == 1
    assert "set DACG_LLM_URL" in unset.stderr
    endpoint.script = [(401, b'{"error": "bad key"}')]
    refused = runner.invoke(app, ["query", "vitamin D3 supplementation", "albuminuria",
                                  *args[3:]],
                            env={"NEO4J_URI": "", "DACG_LLM_MODEL": "m",
                                 "DACG_LLM_URL": endpoint.url + "?key=sk-in-url"})
    assert refused.exit_code == 1 and refused.stderr.count("\n") == 1, refused.stderr
    assert "HTTP 401" in refused.stderr and "sk-in-url" not in refused.stderr

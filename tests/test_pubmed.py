"""The PubMed client against a real local HTTP server replaying recorded NCBI answers.

The server (ThreadingHTTPServer on 127.0.0.1) answers from vcrpy cassettes: the real
recorded exchanges in ../shared/data/eutils and the small error-case cassettes in
tests/fixtures/eutils. It records every request it sees (time, method, parameters), so
the tests can check what the client sent, how often, and how fast.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import yaml

from pipeline.model import Entity, Query
from pipeline.resources import SHARED_DATA
from pipeline.retrieval.cache import CacheMiss, CacheMode, ResponseCache
from pipeline.retrieval.pubmed import PubMedClient, PubMedConfig, RateLimiter
from pipeline.retrieval.pubmed_xml import EUtilsError
from pipeline.retrieval.source import EmptyResult, SearchConstraints, SourceUnavailable

EUTILS = SHARED_DATA / "eutils"
FIXTURES = Path(__file__).parent / "fixtures" / "eutils"
needs_data = pytest.mark.skipif(not EUTILS.is_dir(), reason="../shared/data is absent")

MATCH_KEYS = ("db", "term", "id", "WebEnv", "query_key")
API_KEY = "test-key-0123456789abcdef"
EMAIL = "someone@example.org"


@dataclass
class Answer:
    status: int
    body: bytes
    content_type: str = "text/xml; charset=UTF-8"


@dataclass
class Route:
    endpoint: str
    match: dict[str, str]
    answers: list[Answer]


@dataclass
class Seen:
    time: float
    method: str
    endpoint: str
    params: dict[str, str]
    path: str


@dataclass
class EutilsServer:
    """Answers each request from the first route whose recorded parameters it carries;
    a route's answers are used in order and the last one repeats."""

    routes: list[Route] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    base_url: str = ""

    def add(self, endpoint: str, match: dict[str, str], *answers: Answer) -> None:
        self.routes.append(Route(endpoint, match, list(answers)))

    def add_cassette(self, path: Path) -> list[tuple[str, dict[str, str], Answer]]:
        """Load a vcrpy cassette; returns its (endpoint, request params, answer)."""
        exchanges = []
        for interaction in yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"]:
            request, response = interaction["request"], interaction["response"]
            uri = urlsplit(request["uri"])
            params = dict(parse_qsl(uri.query))
            params.update(parse_qsl(request["body"] or ""))
            endpoint = uri.path.rsplit("/", 1)[-1].removesuffix(".fcgi")
            answer = Answer(response["status"]["code"],
                            response["body"]["string"].encode("utf-8"))
            match = {k: v for k, v in params.items() if k in MATCH_KEYS}
            existing = next((r for r in self.routes
                             if r.endpoint == endpoint and r.match == match), None)
            if existing is None:
                self.add(endpoint, match, answer)
            else:
                existing.answers.append(answer)
            exchanges.append((endpoint, params, answer))
        return exchanges

    def answer(self, method: str, path: str, params: dict[str, str]) -> Answer:
        endpoint = urlsplit(path).path.rsplit("/", 1)[-1].removesuffix(".fcgi")
        with self.lock:
            self.seen.append(Seen(time.monotonic(), method, endpoint, params, path))
            for route in self.routes:
                if route.endpoint == endpoint and all(
                        params.get(k) == v for k, v in route.match.items()):
                    return route.answers.pop(0) if len(route.answers) > 1 else route.answers[0]
        return Answer(404, b"no recorded answer", "text/plain")

    def requests_to(self, endpoint: str) -> list[Seen]:
        return [s for s in self.seen if s.endpoint == endpoint]


def make_handler(server: EutilsServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _reply(self, method: str, params: dict[str, str]) -> None:
            answer = server.answer(method, self.path, params)
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.content_type)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            self.wfile.write(answer.body)

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            self._reply("GET", dict(parse_qsl(urlsplit(self.path).query)))

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length).decode("utf-8")
            self._reply("POST", dict(parse_qsl(body)))

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            """Quiet: the tests read `server.seen` instead."""

    return Handler


@pytest.fixture
def server() -> Iterator[EutilsServer]:
    state = EutilsServer()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    state.base_url = f"http://127.0.0.1:{httpd.server_address[1]}/entrez/eutils/"
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def client_for(server: EutilsServer, cache: ResponseCache | None = None,
               **overrides: object) -> PubMedClient:
    """A client aimed at the local server; fast (no backoff, a high rate) unless told."""
    settings: dict[str, object] = {"base_url": server.base_url, "requests_per_second": 100.0,
                                   "backoff_factor": 0.0, "retries": 2}
    settings.update(overrides)
    return PubMedClient(PubMedConfig(**settings), cache=cache)  # type: ignore[arg-type]


def query(intervention: str, outcome: str) -> Query:
    return Query(Entity.from_name(intervention), Entity.from_name(outcome))


ZINC_TERM = "(zinc) AND (common cold) AND hasabstract"


# -- real recorded exchanges ------------------------------------------------------------


def cassette_exchanges() -> list[tuple[str, str]]:
    """(cassette, endpoint) pairs the client can replay: ESearch, and PubMed EFetch."""
    if not EUTILS.is_dir():
        return []
    found = []
    for path in sorted((EUTILS / "eutils_cassettes").glob("*.yaml")):
        for interaction in yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"]:
            uri, body = interaction["request"]["uri"], interaction["request"]["body"] or ""
            params = dict(parse_qsl(body))
            if uri.endswith("esearch.fcgi") or (uri.endswith("efetch.fcgi")
                                                and params.get("db") == "pubmed"):
                found.append((path.name, uri.rsplit("/", 1)[-1].removesuffix(".fcgi")))
    return found


@needs_data
@pytest.mark.parametrize(("cassette", "endpoint"), cassette_exchanges())
def test_replays_recorded_exchange(server: EutilsServer, cassette: str, endpoint: str) -> None:
    exchanges = server.add_cassette(EUTILS / "eutils_cassettes" / cassette)
    _, params, answer = next(e for e in exchanges if e[0] == endpoint)
    client = client_for(server)
    body = answer.body.decode("utf-8")
    if endpoint == "esearch":
        result = client.esearch(params["term"], db=params["db"])
        assert str(result.count) == re.findall(r"<Count>(\d+)</Count>", body)[0]
        assert list(result.ids) == re.findall(r"<Id>(\d+)</Id>", body)
        assert [result.webenv] == re.findall(r"<WebEnv>([^<]+)</WebEnv>", body)
    else:
        records = client.fetch([params["id"]])
        assert [r.pmid for r in records] == [params["id"]]
        record = records[0]
        assert record.title and record.year is not None
        assert ("<MeshHeading>" in body) == bool(record.mesh)
        assert ("<AbstractText" in body) == bool(record.text)
    sent = server.seen[-1]
    assert sent.endpoint == endpoint and sent.params["tool"] == "dacg"
    assert all(sent.params[k] == v for k, v in params.items() if k in ("db", "term", "id"))


@needs_data
def test_search_reads_steps_from_the_history_server(server: EutilsServer) -> None:
    """Biopython's recorded esearch (with WebEnv) and efetch answers, read step by step."""
    biopython = EUTILS / "biopython"
    server.add("esearch", {}, Answer(200, (biopython / "esearch2.xml").read_bytes()))
    server.add("efetch", {"retstart": "0"}, Answer(200, (biopython / "pubmed2.xml").read_bytes()))
    server.add("efetch", {}, Answer(200, (biopython / "pubmed1.xml").read_bytes()))
    client = client_for(server)
    cursor = client.search(query("cancer", "survival"),
                           SearchConstraints(batch_size=2, max_results=5))
    assert cursor.total == 5 and not cursor.exhausted
    steps = [cursor.next_batch() for _ in range(4)]
    assert [len(step) for step in steps] == [2, 2, 2, 0]  # the files hold 2 records each
    assert cursor.exhausted
    search = server.requests_to("esearch")[0].params
    assert search["usehistory"] == "y" and search["sort"] == "relevance"
    assert (search["datetype"], search["mindate"], search["maxdate"]) == ("pdat", "2010", "2025")
    assert search["term"] == "(cancer) AND (survival) AND hasabstract"
    fetches = server.requests_to("efetch")
    assert [(f.params["retstart"], f.params["retmax"]) for f in fetches] == [
        ("0", "2"), ("2", "2"), ("4", "1")]
    assert {f.params["WebEnv"] for f in fetches} == {"MCID_6927d6e7fee3e90f880ec190"}
    assert {f.params["query_key"] for f in fetches} == {"1"}


@needs_data
def test_empty_result_with_error_list_is_a_clear_error(server: EutilsServer) -> None:
    server.add("esearch", {}, Answer(200, (EUTILS / "biopython" / "esearch8.xml").read_bytes()))
    with pytest.raises(EmptyResult, match="PhraseNotFound: abcXYZ"):
        client_for(server).search(query("abcXYZ", "anything"))


# -- error cases (fixtures in the same cassette format) ----------------------------------


def test_retries_after_429_then_succeeds(server: EutilsServer) -> None:
    server.add_cassette(FIXTURES / "retry_429.yaml")
    client = client_for(server, requests_per_second=20.0)
    cursor = client.search(query("zinc", "common cold"))
    assert cursor.total == 3
    attempts = server.requests_to("esearch")
    assert len(attempts) == 2
    # the retry waited for the shared rate limiter, not just urllib3's (zero) backoff
    assert attempts[1].time - attempts[0].time >= 0.9 * RateLimiter(20.0).interval


def test_persistent_500_gives_up_after_the_retries(server: EutilsServer) -> None:
    server.add_cassette(FIXTURES / "server_error.yaml")
    client = client_for(server, retries=2, api_key=API_KEY)
    with pytest.raises(SourceUnavailable, match="HTTP 500") as failure:
        client.fetch(["12091962"])
    assert len(server.requests_to("efetch")) == 3  # the first attempt and two retries
    assert API_KEY not in str(failure.value)


def test_truncated_xml_is_an_error_and_is_not_cached(server: EutilsServer,
                                                     tmp_path: Path) -> None:
    server.add_cassette(FIXTURES / "truncated.yaml")
    client = client_for(server, cache=ResponseCache(tmp_path))
    with pytest.raises(EUtilsError, match="truncated"):
        client.fetch(["9997"])
    assert not list(tmp_path.rglob("*.json"))


def test_error_list_with_hits_is_refused(server: EutilsServer) -> None:
    server.add_cassette(FIXTURES / "error_list.yaml")
    with pytest.raises(EUtilsError, match="PhraseNotFound: abcxyzitis"):
        client_for(server).search(query("zinc", "abcxyzitis"))


def test_connection_refused_is_source_unavailable() -> None:
    client = PubMedClient(PubMedConfig(base_url="http://127.0.0.1:9/", retries=1,
                                       backoff_factor=0.0, requests_per_second=100.0,
                                       api_key=API_KEY))
    with pytest.raises(SourceUnavailable, match="cannot reach") as failure:
        client.fetch(["1"])
    assert API_KEY not in str(failure.value)


# -- rate limit ---------------------------------------------------------------------------


def max_in_window(times: list[float], window: float = 1.0) -> int:
    times = sorted(times)
    return max(sum(1 for t in times[i:] if t - start < window) for i, start in enumerate(times))


@pytest.mark.parametrize(("api_key", "threads", "per_thread", "limit"),
                         [(API_KEY, 4, 3, 10), (None, 1, 5, 3)])
def test_rate_limit_holds_across_threads(server: EutilsServer, api_key: str | None,
                                         threads: int, per_thread: int, limit: int) -> None:
    server.add_cassette(FIXTURES / "retry_429.yaml")  # first answer 429, then 200
    server.routes[0].answers.pop(0)
    client = client_for(server, requests_per_second=None, api_key=api_key)
    assert client.config.rate == limit

    def work() -> None:  # a client per thread: the limiter is shared all the same
        own = client_for(server, requests_per_second=None, api_key=api_key)
        for _ in range(per_thread):
            own.esearch(ZINC_TERM)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    times = [s.time for s in server.seen]
    assert len(times) == threads * per_thread
    assert max_in_window(times) <= limit
    assert times[-1] - times[0] >= (len(times) - 1) / limit  # spaced, not bursty


def test_credentials_travel_in_the_body_never_in_the_url(server: EutilsServer) -> None:
    server.add_cassette(FIXTURES / "retry_429.yaml")
    client = client_for(server, api_key=API_KEY, email=EMAIL)
    client.esearch(ZINC_TERM)
    sent = server.seen[-1]
    assert sent.method == "POST" and API_KEY not in sent.path and EMAIL not in sent.path
    assert (sent.params["api_key"], sent.params["email"], sent.params["tool"]) == (
        API_KEY, EMAIL, "dacg")
    assert API_KEY not in repr(client.config)


def test_many_ids_are_posted(server: EutilsServer) -> None:
    server.add("efetch", {}, Answer(200, b"<PubmedArticleSet></PubmedArticleSet>"))
    client = client_for(server, post_threshold=3)
    client.fetch(["1", "2", "3"])
    client.fetch(["1", "2", "3", "4"])
    assert [s.method for s in server.seen] == ["GET", "POST"]
    assert server.seen[-1].params["id"] == "1,2,3,4"


def test_config_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NCBI_API_KEY", API_KEY)
    monkeypatch.setenv("NCBI_EMAIL", EMAIL)
    config = PubMedConfig.from_env(tool="other")
    assert (config.api_key, config.email, config.tool, config.rate) == (
        API_KEY, EMAIL, "other", 10.0)


# -- cache and offline replay -------------------------------------------------------------


@needs_data
def test_recorded_run_replays_offline(server: EutilsServer, tmp_path: Path) -> None:
    biopython = EUTILS / "biopython"
    server.add("esearch", {}, Answer(200, (biopython / "esearch2.xml").read_bytes()))
    server.add("efetch", {"retstart": "0"}, Answer(200, (biopython / "pubmed2.xml").read_bytes()))
    server.add("efetch", {}, Answer(200, (biopython / "pubmed1.xml").read_bytes()))
    online = client_for(server, cache=ResponseCache(tmp_path), api_key=API_KEY, email=EMAIL)
    recorded = online.search(query("cancer", "survival"), SearchConstraints(batch_size=2))
    first = [recorded.next_batch(), recorded.next_batch()]

    offline = PubMedClient(PubMedConfig(base_url="http://127.0.0.1:9/"),
                           cache=ResponseCache(tmp_path, CacheMode.OFFLINE))
    replay = offline.search(query("cancer", "survival"), SearchConstraints(batch_size=2))
    assert [replay.next_batch(), replay.next_batch()] == first
    with pytest.raises(CacheMiss, match="offline"):
        replay.next_batch()  # the third page was never recorded
    with pytest.raises(CacheMiss):
        offline.search(query("aspirin", "stroke"))
    stored = "".join(p.read_text(encoding="utf-8") for p in tmp_path.rglob("*.json"))
    assert API_KEY not in stored and EMAIL not in stored and '"tool"' not in stored


def test_stale_webenv_from_the_cache_is_refreshed(server: EutilsServer,
                                                  tmp_path: Path) -> None:
    server.add_cassette(FIXTURES / "retry_429.yaml")
    server.routes[0].answers.pop(0)
    server.add_cassette(FIXTURES / "stale_webenv.yaml")
    article = (b'<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>9997</PMID>'
               b'<Article><ArticleTitle>Zinc and colds.</ArticleTitle></Article>'
               b'</MedlineCitation></PubmedArticle></PubmedArticleSet>')
    server.routes[-1].answers.append(Answer(200, article))
    cache = ResponseCache(tmp_path)
    client_for(server, cache=cache).search(query("zinc", "common cold"))  # records the search
    cursor = client_for(server, cache=cache).search(query("zinc", "common cold"))
    assert len(server.requests_to("esearch")) == 1  # the second search came from the cache
    assert [a.pmid for a in cursor.next_batch()] == ["9997"]
    assert len(server.requests_to("esearch")) == 2  # run again after "Unable to obtain query"

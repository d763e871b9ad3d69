"""PubMed through NCBI E-utilities: ESearch on the history server, EFetch one step at a time.

NCBI allows 3 requests/s (10/s with an API key) per user, so one limiter is shared by
every thread and every retry. Retries with backoff on 429/5xx/connection errors are
urllib3's `Retry` on a requests adapter. Answers go through the on-disk cache so a run
can be replayed offline; credentials never reach a log line, a cache key or a message.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, Self, TypeVar

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from pipeline.model import Abstract, Query
from pipeline.retrieval.cache import ResponseCache
from pipeline.retrieval.pubmed_xml import (
    ESearchResult,
    EUtilsError,
    parse_esearch,
    parse_pubmed_xml,
)
from pipeline.retrieval.source import EmptyResult, SearchConstraints, SourceUnavailable

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/"
RETRY_STATUSES = (429, 500, 502, 503, 504)
T = TypeVar("T")


class RateLimiter:
    """Spaces requests evenly, across threads: at most `per_second` in any 1 s window.

    Slots are 10% wider than 1/rate so a little scheduling jitter cannot squeeze
    one request too many into a second on NCBI's side.
    """

    def __init__(self, per_second: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if per_second <= 0:
            raise ValueError(f"requests per second must be positive, got {per_second}")
        self.interval = 1.1 / per_second
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._next = 0.0

    def acquire(self) -> None:
        with self._lock:
            now = self._clock()
            slot = max(now, self._next)
            self._next = slot + self.interval
        if slot > now:
            self._sleep(slot - now)


_LIMITERS: dict[float, RateLimiter] = {}
_LIMITERS_LOCK = threading.Lock()


def shared_limiter(per_second: float) -> RateLimiter:
    """One limiter per rate for the whole process: NCBI counts requests per key/address,
    not per client object."""
    with _LIMITERS_LOCK:
        if per_second not in _LIMITERS:
            _LIMITERS[per_second] = RateLimiter(per_second)
        return _LIMITERS[per_second]


class LimitedRetry(Retry):
    """urllib3 Retry whose retries also wait for the shared rate limiter."""

    def __init__(self, *args: Any, limiter: RateLimiter | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limiter = limiter

    def new(self, **kwargs: Any) -> Self:
        retry = super().new(**kwargs)
        retry.limiter = self.limiter
        return retry

    def sleep(self, response: Any = None) -> None:
        super().sleep(response)
        if self.limiter is not None:
            self.limiter.acquire()


class Transport(Protocol):
    """The HTTP the client needs: one call, answering (status, body)."""

    def request(self, method: str, url: str, params: Mapping[str, str]) -> tuple[int, bytes]:
        ...


class RequestsTransport:
    """requests Session with a retrying adapter and the rate limiter in front of it."""

    def __init__(self, limiter: RateLimiter, retries: int = 4, backoff_factor: float = 0.5,
                 timeout: float = 30.0) -> None:
        self.limiter = limiter
        self.timeout = timeout
        self.retries = retries
        retry = LimitedRetry(
            total=retries, connect=retries, read=retries, status=retries,
            backoff_factor=backoff_factor, status_forcelist=RETRY_STATUSES,
            allowed_methods=frozenset({"GET", "POST"}), respect_retry_after_header=True,
            raise_on_status=False, limiter=limiter)
        self.session = requests.Session()
        self.session.headers["User-Agent"] = "dacg/0.1 (E-utilities client)"
        adapter = HTTPAdapter(max_retries=retry)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)

    def request(self, method: str, url: str, params: Mapping[str, str]) -> tuple[int, bytes]:
        self.limiter.acquire()
        try:
            if method == "POST":
                response = self.session.post(url, data=dict(params), timeout=self.timeout)
            else:
                response = self.session.get(url, params=dict(params), timeout=self.timeout)
        except requests.RequestException as exc:
            raise SourceUnavailable(
                f"cannot reach {url} after {self.retries} retries: {type(exc).__name__}"
            ) from None
        return response.status_code, response.content


@dataclass(frozen=True, slots=True)
class PubMedConfig:
    """Where and how to ask NCBI. The API key is excluded from repr so it never prints.

    Args:
        base_url: the E-utilities base URL.
        tool, email: identify the caller to NCBI, as its usage policy asks.
        api_key: an NCBI API key (raises the rate limit from 3 to 10 requests per second).
        requests_per_second: overrides the rate limit that the key implies.
        retries: how often a failed request is retried (connection errors, 429, 5xx).
        backoff_factor: seconds of exponential back-off between retries (urllib3 Retry).
        timeout: seconds to wait for an answer.
        batch_size: abstracts fetched per retrieval step.
        min_year, max_year: publication years searched when a query sets none.
        post_threshold: ids in one EFetch above which it is a POST rather than a GET.
    """

    base_url: str = DEFAULT_BASE_URL
    tool: str = "dacg"
    email: str | None = None
    api_key: str | None = field(default=None, repr=False)
    requests_per_second: float | None = None
    retries: int = 4
    backoff_factor: float = 0.5
    timeout: float = 30.0
    batch_size: int = 5
    years: tuple[int, int] = (2010, 2025)  # the default publication-date window (pdat)
    post_threshold: int = 200

    @classmethod
    def from_env(cls, **overrides: Any) -> PubMedConfig:
        """NCBI_API_KEY and NCBI_EMAIL from the environment; explicit values win."""
        config = cls(api_key=os.environ.get("NCBI_API_KEY") or None,
                     email=os.environ.get("NCBI_EMAIL") or None)
        return replace(config, **overrides)

    @property
    def rate(self) -> float:
        if self.requests_per_second is not None:
            return self.requests_per_second
        return 10.0 if self.api_key else 3.0


_TERM_UNSAFE = re.compile(r'[\[\]()"]+')


def build_term(query: Query, constraints: SearchConstraints) -> str:
    """PubMed term: intervention AND outcome (automatic term mapping kept, so MeSH
    synonyms match), restricted to records with an abstract and the wanted types."""
    def group(text: str) -> str:
        return "(" + " ".join(_TERM_UNSAFE.sub(" ", text).split()) + ")"

    parts = [group(query.intervention.name), group(query.outcome.name)]
    if constraints.publication_types:
        types = " OR ".join(f'"{_TERM_UNSAFE.sub(" ", t).strip()}"[pt]'
                            for t in constraints.publication_types)
        parts.append(f"({types})")
    parts.append("hasabstract")
    return " AND ".join(parts)


class PubMedClient:
    """The PubMed literature source (and the low-level E-utilities calls it makes)."""

    def __init__(self, config: PubMedConfig | None = None, transport: Transport | None = None,
                 cache: ResponseCache | None = None) -> None:
        """Args:
            config: where and how to ask NCBI; None reads NCBI_API_KEY and NCBI_EMAIL
                from the environment (PubMedConfig.from_env).
            transport: sends the HTTP requests; None is requests with the config's rate
                limit (3 or 10 requests per second), retries, back-off and timeout.
            cache: answers stored on disk and replayed; None asks NCBI every time.
        """
        self.config = config or PubMedConfig.from_env()
        self.transport = transport or RequestsTransport(
            shared_limiter(self.config.rate), self.config.retries, self.config.backoff_factor,
            self.config.timeout)
        self.cache = cache

    # -- the LiteratureSource interface ---------------------------------------------------

    def search(self, query: Query, constraints: SearchConstraints | None = None) -> PubMedCursor:
        constraints = constraints or SearchConstraints()
        params = {
            "db": "pubmed",
            "term": build_term(query, constraints),
            "sort": "relevance",
            "datetype": "pdat",
            "mindate": str(constraints.min_year or self.config.years[0]),
            "maxdate": str(constraints.max_year or self.config.years[1]),
            "retmax": str(constraints.max_results),
        }
        return PubMedCursor(self, params, constraints.batch_size or self.config.batch_size)

    # -- E-utilities --------------------------------------------------------------------

    def esearch(self, term: str, *, db: str = "pubmed", retmax: int = 20,
                **extra: str) -> ESearchResult:
        """One ESearch on the history server (no checks on the answer: see PubMedCursor)."""
        params = {"db": db, "term": term, "retmax": str(retmax), **extra}
        return self._esearch(params, use_cache=True)[0]

    def _esearch(self, params: Mapping[str, str], *,
                 use_cache: bool) -> tuple[ESearchResult, bool]:
        full = {"usehistory": "y", "retmode": "xml", "retstart": "0", **params}
        return self._call("esearch", full, full, parse_esearch, use_cache=use_cache)

    def fetch(self, pmids: Sequence[str]) -> list[Abstract]:
        """EFetch records by PMID, in the order asked; POST when the id list is long."""
        if not pmids:
            return []
        params = {"db": "pubmed", "id": ",".join(pmids), "retmode": "xml"}
        records, _ = self._call("efetch", params, params, parse_pubmed_xml,
                                post=len(pmids) > self.config.post_threshold)
        return _in_order(records, pmids)

    def fetch_page(self, search_key: Mapping[str, str], search: ESearchResult,
                   retstart: int, retmax: int) -> list[Abstract]:
        """EFetch one page of a history-server result. The cache key is the search plus
        the page, not the WebEnv, so a replay finds it whichever session recorded it."""
        if search.webenv is None or search.query_key is None:
            raise EUtilsError("esearch: no WebEnv/QueryKey in the answer (history server)")
        params = {"db": "pubmed", "WebEnv": search.webenv, "query_key": search.query_key,
                  "retstart": str(retstart), "retmax": str(retmax), "retmode": "xml"}
        key = {**search_key, "page_retstart": str(retstart), "page_retmax": str(retmax)}
        records, _ = self._call("efetch", params, key, parse_pubmed_xml)
        return _in_order(records, search.ids)

    def _call(self, endpoint: str, params: Mapping[str, str], key: Mapping[str, str],
              parse: Callable[[bytes], T], *, post: bool = False,
              use_cache: bool = True) -> tuple[T, bool]:
        """Cache, else NCBI; the answer is cached only once it parsed. Also says whether
        the answer came from the cache."""
        if self.cache is not None and use_cache:
            cached = self.cache.get(endpoint, key)
            if cached is not None:
                return parse(cached), True
        body = self._http(endpoint, params, post=post)
        result = parse(body)
        if self.cache is not None:
            self.cache.put(endpoint, key, body)
        return result, False

    def _http(self, endpoint: str, params: Mapping[str, str], *, post: bool) -> bytes:
        """GET, or POST for long id lists and whenever a credential is sent, so the key
        never sits in a URL (urllib3 logs retried URLs, proxies log them too)."""
        url = self.config.base_url.rstrip("/") + f"/{endpoint}.fcgi"
        full = dict(params, tool=self.config.tool)
        if self.config.email:
            full["email"] = self.config.email
        if self.config.api_key:
            full["api_key"] = self.config.api_key
        method = "POST" if post or self.config.api_key or self.config.email else "GET"
        log.debug("E-utilities %s %s %s", method, endpoint,
                  {k: v[:80] for k, v in params.items() if k != "WebEnv"})
        status, body = self.transport.request(method, url, full)
        if status != 200:
            detail = self._scrub(body[:200].decode("utf-8", errors="replace"))
            message = f"{endpoint}: NCBI answered HTTP {status}: {' '.join(detail.split())}"
            if status in RETRY_STATUSES:
                raise SourceUnavailable(message + " (retries exhausted)")
            raise EUtilsError(message)
        return body

    def _scrub(self, text: str) -> str:
        for secret in (self.config.api_key, self.config.email):
            if secret:
                text = text.replace(secret, "***")
        return text


class PubMedCursor:
    """One PubMed search read step by step: ESearch once, then one EFetch page per step.

    If the WebEnv came from the cache and NCBI has forgotten it, the search is run
    again live once and the page retried.
    """

    def __init__(self, client: PubMedClient, search_params: dict[str, str],
                 batch_size: int) -> None:
        self._client = client
        self._key = search_params
        self._batch_size = batch_size
        self._search, from_cache = client._esearch(search_params, use_cache=True)
        self._fresh = not from_cache
        self._offset = 0
        term = search_params["term"]
        if self._search.count == 0:
            detail = "; ".join(self._search.errors + self._search.warnings)
            raise EmptyResult(f"PubMed found nothing for {term!r}"
                              + (f" ({detail})" if detail else ""))
        if self._search.errors:
            raise EUtilsError(f"NCBI ignored part of {term!r}: {'; '.join(self._search.errors)}")

    @property
    def total(self) -> int:
        return min(self._search.count, int(self._key["retmax"]))

    @property
    def exhausted(self) -> bool:
        return self._offset >= self.total

    @property
    def pmids(self) -> tuple[str, ...]:
        return self._search.ids

    def next_batch(self) -> list[Abstract]:
        size = min(self._batch_size, self.total - self._offset)
        if size <= 0:
            return []
        try:
            batch = self._client.fetch_page(self._key, self._search, self._offset, size)
        except EUtilsError:
            if self._fresh:
                raise
            self._search, _ = self._client._esearch(self._key, use_cache=False)
            self._fresh = True
            batch = self._client.fetch_page(self._key, self._search, self._offset, size)
        self._offset += size
        return batch


def _in_order(records: list[Abstract], pmids: Sequence[str]) -> list[Abstract]:
    """EFetch may answer in its own order; put records back in the asked/ranked order."""
    rank = {pmid: i for i, pmid in enumerate(pmids)}
    return sorted(records, key=lambda r: rank.get(r.pmid, len(rank)))

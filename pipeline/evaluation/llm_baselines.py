"""The paper's external baselines E1 (LLM zero-shot, no retrieval) and E2 (LLM + RAG over
the first 10 retrieved abstracts), through the same OpenAI-compatible chat endpoint as
the LLM extractor (DACG_LLM_URL, DACG_LLM_MODEL, DACG_LLM_API_KEY). Optional: without an
endpoint the tables list them as needing one. The key is never logged or written.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from pipeline.extraction.llm import KEY_ENV, MODEL_ENV, URL_ENV, LLMError
from pipeline.model import Abstract, Polarity, Query
from pipeline.retrieval.source import EmptyResult, LiteratureSource, SearchConstraints

E1, E2 = "E1 LLM zero-shot", "E2 LLM + RAG"
RAG_ABSTRACTS = 10
ANSWERS = ("Beneficial", "NoEffect", "Harmful")
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object", "properties": {"answer": {"type": "string", "enum": list(ANSWERS)}},
    "required": ["answer"]}
_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$")
SYSTEM_PROMPT = (
    "You judge clinical questions from the evidence. Answer with JSON only, matching this "
    "schema: " + json.dumps(ANSWER_SCHEMA) + ". Beneficial: the intervention moves the "
    "outcome in the desired direction; NoEffect: it makes no meaningful difference; "
    "Harmful: it moves the outcome the wrong way.")


def question_text(query: Query) -> str:
    want = "increase" if query.direction == Polarity.INCREASES else "decrease"
    against = f" compared with {query.comparator.name}" if query.comparator else ""
    return (f"Does {query.intervention.name}{against} {want} {query.outcome.name} "
            f"(the desired direction)?")


class LLMJudge:
    """Asks a chat-completions endpoint for one label per question."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None,
                 timeout: float = 60.0, retries: int = 2, backoff: float = 1.0,
                 session: requests.Session | None = None) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self._api_key = api_key
        self.timeout = timeout
        self.session = session or requests.Session()
        # transport retries (429 and 5xx, with backoff) by urllib3, as requests advises
        self.session.mount(self.url, HTTPAdapter(max_retries=Retry(
            total=retries, backoff_factor=backoff, status_forcelist=(429, 500, 502, 503, 504),
            allowed_methods=("POST",), raise_on_status=False)))

    def __repr__(self) -> str:  # keeps the key out of logs and tracebacks
        return f"LLMJudge(url={self.url!r}, model={self.model!r})"

    @classmethod
    def from_env(cls) -> LLMJudge | None:
        """The configured endpoint, or None when there is none."""
        url, model = os.environ.get(URL_ENV), os.environ.get(MODEL_ENV)
        if not url or not model:
            return None
        return cls(url, model, os.environ.get(KEY_ENV) or None)

    def answer(self, query: Query, abstracts: Sequence[Abstract] = ()) -> str | None:
        """The label the model gives (None when its answer names no label)."""
        lines = [question_text(query)]
        if abstracts:
            lines += ["", "Abstracts retrieved for this question:"]
            lines += [f"[{i}] PMID {a.pmid}. {a.title} {a.text}"
                      for i, a in enumerate(abstracts, 1)]
        body: dict[str, Any] = {
            "model": self.model, "temperature": 0,
            "messages": [{"role": "system", "content": SYSTEM_PROMPT},
                         {"role": "user", "content": "\n".join(lines)}],
            "response_format": {"type": "json_schema", "json_schema": {
                "name": "answer", "schema": ANSWER_SCHEMA}}}
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        try:
            response = self.session.post(self.url, json=body, headers=headers,
                                         timeout=self.timeout)
        except requests.RequestException as exc:
            raise LLMError(f"cannot reach {self.url}: {type(exc).__name__}") from None
        if response.status_code >= 400:
            raise LLMError(f"{self.url} answered HTTP {response.status_code}")
        try:
            content = response.json()["choices"][0]["message"]["content"]
            label = json.loads(_FENCE.sub("", content))["answer"]
        except (ValueError, KeyError, IndexError, TypeError):
            return None  # an answer that names no label is scored as no answer
        return label if label in ANSWERS else None


def first_abstracts(source: LiteratureSource, query: Query,
                    count: int = RAG_ABSTRACTS) -> list[Abstract]:
    """The first `count` abstracts a search returns (E2's context)."""
    try:
        cursor = source.search(query, SearchConstraints(max_results=count, batch_size=count))
    except EmptyResult:
        return []
    return cursor.next_batch()[:count]


def llm_baselines(judge: LLMJudge, queries: dict[str, Query], source: LiteratureSource,
                  on_query: Callable[[], None] | None = None
                  ) -> dict[str, dict[str, str | None]]:
    """{E1: labels, E2: labels} per query id, queries in id order."""
    labels: dict[str, dict[str, str | None]] = {E1: {}, E2: {}}
    for query_id in sorted(queries):
        query = queries[query_id]
        labels[E1][query_id] = judge.answer(query)
        labels[E2][query_id] = judge.answer(query, first_abstracts(source, query))
        if on_query:
            on_query()
    return labels

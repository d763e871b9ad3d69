"""Optional LLM extractor over an OpenAI-compatible chat endpoint (vLLM, Ollama, ...).

Never required: the rule pipeline is the default. The model is asked for JSON that
follows TRIPLES_SCHEMA; every returned triple is validated before it becomes evidence:
head and tail must be the query's entities or a mediator (a new mediator name is resolved
like any other entity), polarity one of -1/0/+1, and the quoted sentence must occur in
the abstract, so an invented quote is dropped rather than stored. Transport errors and
unparseable answers are retried; when every attempt fails, LLMError says why. The API key
comes from the environment and is never logged or written.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from typing import Any

import requests

from pipeline.extraction.resolve import EntityResolver
from pipeline.extraction.rows import evidence_row
from pipeline.extraction.text import clean_name, clean_text
from pipeline.model import Abstract, Entity, Evidence, InvalidEvidence, Query, normalise_name
from pipeline.settings import redact_uri

URL_ENV, MODEL_ENV, KEY_ENV = "DACG_LLM_URL", "DACG_LLM_MODEL", "DACG_LLM_API_KEY"
MAX_CONFIDENCE = 0.95
TRIPLES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"triples": {"type": "array", "items": {
        "type": "object",
        "properties": {
            "head": {"type": "string"},
            "tail": {"type": "string"},
            "polarity": {"type": "integer", "enum": [-1, 0, 1]},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "sentence": {"type": "string"},
        },
        "required": ["head", "tail", "polarity", "confidence", "sentence"],
    }}},
    "required": ["triples"],
}
SYSTEM_PROMPT = (
    "You extract causal findings from biomedical abstracts. Answer with JSON only, "
    "matching this schema: " + json.dumps(TRIPLES_SCHEMA) + ". A triple says that head "
    "changes tail: polarity 1 = increases, -1 = decreases, 0 = no significant effect. "
    "Read comparisons relative to the comparator ('lower in the placebo group' means the "
    "intervention increases it). Use the entity names exactly as given. 'sentence' must "
    "be copied verbatim from the abstract. Report only findings the abstract states; "
    "an aim or a hypothesis is not a finding. If there are none, return {\"triples\": []}.")
_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$")


class LLMError(RuntimeError):
    """The endpoint could not give a usable answer (the message says why)."""


class LLMExtractor:
    """Extractor backed by a chat-completions endpoint."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None,
                 resolver: EntityResolver | None = None, timeout: float = 60.0,
                 retries: int = 2, backoff: float = 1.0, structured: bool = True,
                 session: requests.Session | None = None) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self._shown_url = redact_uri(self.url)  # a key may sit in the URL too
        self.model = model
        self._api_key = api_key
        self.resolver = resolver or EntityResolver()
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.structured = structured
        self.session = session or requests.Session()
        self.name = f"llm:{model}"

    def __repr__(self) -> str:  # keeps the key out of logs and tracebacks
        return f"LLMExtractor(url={self._shown_url!r}, model={self.model!r})"

    @classmethod
    def from_env(cls, resolver: EntityResolver | None = None) -> LLMExtractor:
        url, model = os.environ.get(URL_ENV), os.environ.get(MODEL_ENV)
        if not url or not model:
            raise LLMError(f"set {URL_ENV} (e.g. http://localhost:8000/v1) and {MODEL_ENV}")
        return cls(url, model, os.environ.get(KEY_ENV) or None, resolver)

    def extract(self, abstract: Abstract, query: Query,
                mediators: Sequence[Entity] = ()) -> list[Evidence]:
        text = " ".join(t for t in (clean_text(abstract.title), clean_text(abstract.text))
                        if t)
        if not any(ch.isalpha() for ch in text):
            return []
        answer = self._ask(self._messages(text, query, mediators))
        return self._validate(answer, text, abstract, query, mediators)

    def _messages(self, text: str, query: Query,
                  mediators: Sequence[Entity]) -> list[dict[str, str]]:
        lines = [f"Intervention: {query.intervention.name}", f"Outcome: {query.outcome.name}"]
        if query.comparator is not None:
            lines.append(f"Comparator: {query.comparator.name}")
        if mediators:
            lines.append("Mediators: " + "; ".join(m.name for m in mediators))
        lines += ["Report intervention -> outcome findings, and intervention -> mediator "
                  "and mediator -> outcome findings (a mediator not listed may be named "
                  "as the abstract names it).", "", f"Abstract: {text}"]
        return [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": "\n".join(lines)}]

    def _ask(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": 0}
        if self.structured:
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": "triples", "schema": TRIPLES_SCHEMA}}
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        problem = "no attempt made"
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * attempt)
            try:
                response = self.session.post(self.url, json=body, headers=headers,
                                             timeout=self.timeout)
            except requests.RequestException as exc:
                problem = f"cannot reach {self._shown_url}: {type(exc).__name__}"
                continue
            if response.status_code >= 500 or response.status_code == 429:
                problem = f"{self._shown_url} answered HTTP {response.status_code}"
                continue
            if response.status_code >= 400:
                raise LLMError(f"{self._shown_url} refused the request: "
                               f"HTTP {response.status_code}")
            try:
                return _content_json(response.json())
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                problem = f"unusable answer from {self.model}: {exc}"
        raise LLMError(f"{problem} (after {self.retries + 1} attempts)")

    def _validate(self, answer: dict[str, Any], text: str, abstract: Abstract, query: Query,
                  mediators: Sequence[Entity]) -> list[Evidence]:
        known = {normalise_name(form): e
                 for e in (*mediators, query.outcome, query.intervention)
                 for form in (*e.aliases, e.name)}
        haystack = _squash(text)
        rows: list[Evidence] = []
        for item in answer.get("triples", []):
            row = self._row(item, known, haystack, abstract)
            if row is not None:
                rows.append(row)
        return rows

    def _row(self, item: object, known: dict[str, Entity], haystack: str,
             abstract: Abstract) -> Evidence | None:
        if not isinstance(item, dict):
            return None
        sentence = item.get("sentence")
        if not isinstance(sentence, str) or not sentence.strip() or _squash(
                sentence) not in haystack:
            return None
        head, tail = self._entity(item.get("head"), known), self._entity(item.get("tail"),
                                                                         known)
        confidence = item.get("confidence")
        if head is None or tail is None or head.id == tail.id:
            return None
        if isinstance(confidence, int | float) and not isinstance(confidence, bool):
            confidence = min(MAX_CONFIDENCE, max(0.0, float(confidence)))
        return evidence_row(head, tail, item.get("polarity"), confidence, abstract,
                            " ".join(sentence.split()), self.name)

    def _entity(self, name: object, known: dict[str, Entity]) -> Entity | None:
        if not isinstance(name, str) or not name.strip():
            return None
        found = known.get(normalise_name(name))
        if found is not None:
            return found
        try:
            return self.resolver.resolve(name)
        except InvalidEvidence:
            return None


def _content_json(payload: Any) -> dict[str, Any]:
    content = payload["choices"][0]["message"]["content"]
    parsed = json.loads(_FENCE.sub("", content))
    if not isinstance(parsed, dict) or not isinstance(parsed.get("triples"), list):
        raise ValueError("no 'triples' list in the answer")
    return parsed


def _squash(text: str) -> str:
    """Whitespace, case, dashes and final punctuation do not make a quote different."""
    return clean_name(text).casefold().rstrip(" .;:")

"""The one interface every literature source implements: search once, then read batches.

The agent reads the literature one step (a batch of abstracts) at a time and must not
know whether the batches come from PubMed, a local corpus, MedEvidence or the simulator,
so all of them return a `Cursor` from `search` and raise the same errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pipeline.model import Abstract, Query


class SourceError(RuntimeError):
    """A source cannot answer; the message is one line and never contains a secret."""


class EmptyResult(SourceError):
    """The search matched nothing. Not a failure of the source: the agent may broaden."""


class SourceUnavailable(SourceError):
    """The source could not be reached (network, server errors after retries, cache miss)."""


@dataclass(frozen=True, slots=True)
class SearchConstraints:
    """What the caller may restrict; None means "the source's default"."""

    min_year: int | None = None
    max_year: int | None = None
    batch_size: int | None = None
    max_results: int = 200
    publication_types: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.batch_size is not None and self.batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {self.batch_size}")
        if self.max_results < 1:
            raise ValueError(f"max_results must be at least 1, got {self.max_results}")
        if (self.min_year is not None and self.max_year is not None
                and self.min_year > self.max_year):
            raise ValueError(f"min_year {self.min_year} is after max_year {self.max_year}")

    def admits_year(self, year: int | None) -> bool:
        """Undated records pass a year filter only when there is no filter."""
        if self.min_year is None and self.max_year is None:
            return True
        if year is None:
            return False
        low = self.min_year if self.min_year is not None else year
        high = self.max_year if self.max_year is not None else year
        return low <= year <= high

    def admits_types(self, publication_types: Sequence[str]) -> bool:
        if not self.publication_types:
            return True
        wanted = {t.casefold() for t in self.publication_types}
        return any(t.casefold() in wanted for t in publication_types)


class Cursor(Protocol):
    """The results of one search, read step by step in ranked order."""

    @property
    def total(self) -> int:
        """How many abstracts this search can yield at most."""
        ...

    @property
    def exhausted(self) -> bool:
        ...

    def next_batch(self) -> list[Abstract]:
        """The next step's abstracts; an empty list once the source has run dry."""
        ...


class LiteratureSource(Protocol):
    """Anything the agent can read from."""

    def search(self, query: Query, constraints: SearchConstraints | None = None) -> Cursor:
        """Rank the literature for `query`; raises EmptyResult when nothing matches."""
        ...


@runtime_checkable
class NamesAliases(Protocol):
    """A source with a vocabulary of its own (the simulator) that gives a question's entities
    their other surface forms as aliases, as MeSH entry terms do for a real query."""

    def with_aliases(self, query: Query) -> Query:
        ...


def with_source_aliases(source: LiteratureSource, query: Query) -> Query:
    """`query` with the aliases `source` knows for its entities (unchanged for a source
    without a vocabulary of its own)."""
    return source.with_aliases(query) if isinstance(source, NamesAliases) else query


class ListCursor:
    """A cursor over an already ranked list (local corpora, MedEvidence, the simulator)."""

    def __init__(self, abstracts: Sequence[Abstract], batch_size: int) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self._abstracts = tuple(abstracts)
        self._batch_size = batch_size
        self._offset = 0

    @property
    def total(self) -> int:
        return len(self._abstracts)

    @property
    def exhausted(self) -> bool:
        return self._offset >= len(self._abstracts)

    def next_batch(self) -> list[Abstract]:
        batch = self._abstracts[self._offset:self._offset + self._batch_size]
        self._offset += len(batch)
        return list(batch)


def query_text(query: Query) -> str:
    """Free text for rankers: the intervention and the outcome (the comparator, often
    "placebo", would favour every placebo-controlled trial)."""
    return f"{query.intervention.name} {query.outcome.name}"


def pmid_order(pmid: str) -> tuple[int, str]:
    """Sort key putting numeric PMIDs in numeric order (ties in rankings break on it)."""
    return (len(pmid), pmid) if pmid.isdigit() else (1 << 30, pmid)

"""Local corpora (a JSONL file or a folder of PubMed XML) ranked for a query with TF-IDF.

Ranking uses scikit-learn's TfidfVectorizer (sublinear tf, English stop words, word
uni- and bigrams) and cosine similarity; only documents sharing a term with the query
are returned, so a local source can run dry. Ties break on PMID so the order, and hence
every trajectory, is reproducible.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from pipeline.jsonl import JsonlError, read_jsonl, read_jsonl_objects
from pipeline.model import Abstract, Query
from pipeline.retrieval.pubmed_xml import parse_pubmed_xml
from pipeline.retrieval.source import (
    EmptyResult,
    ListCursor,
    SearchConstraints,
    SourceError,
    pmid_order,
    query_text,
)

DEFAULT_BATCH_SIZE = 5


class CorpusError(SourceError):
    """A corpus file that cannot be read; the message names the file and line."""


class TfidfRanker:
    """Cosine similarity between a query and every document, fitted once per corpus.
    Documents are stored by column so a query touches only its own terms' postings."""

    def __init__(self, documents: Sequence[str]) -> None:
        self._vectorizer = TfidfVectorizer(sublinear_tf=True, stop_words="english",
                                           ngram_range=(1, 2), dtype=np.float64)
        self._size = len(documents)
        try:
            self._columns = self._vectorizer.fit_transform(documents).tocsc()
        except ValueError:  # no documents, or nothing but stop words: nothing can match
            self._columns = None

    def scores(self, text: str) -> np.ndarray:
        if self._columns is None:
            return np.zeros(self._size)
        query = self._vectorizer.transform([text])
        return np.asarray(self._columns[:, query.indices] @ query.data).ravel()


class LocalCorpus:
    """A fixed set of abstracts as a literature source."""

    def __init__(self, abstracts: Iterable[Abstract],
                 batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        unique: dict[str, Abstract] = {}
        for record in abstracts:
            unique.setdefault(record.pmid, record)
        self.abstracts = tuple(unique.values())
        self.batch_size = batch_size
        self._ranker = TfidfRanker([f"{a.title}\n{a.text}" for a in self.abstracts])
        by_pmid = sorted(range(len(self.abstracts)),
                         key=lambda i: pmid_order(self.abstracts[i].pmid))
        self._pmid_rank = np.empty(len(self.abstracts), dtype=np.int64)
        self._pmid_rank[by_pmid] = np.arange(len(self.abstracts))

    @classmethod
    def from_jsonl(cls, path: Path | str, batch_size: int = DEFAULT_BATCH_SIZE) -> LocalCorpus:
        return cls(read_jsonl_corpus(path), batch_size)

    @classmethod
    def from_xml_dir(cls, path: Path | str,
                     batch_size: int = DEFAULT_BATCH_SIZE) -> LocalCorpus:
        return cls(read_xml_dir(path), batch_size)

    def __len__(self) -> int:
        return len(self.abstracts)

    def rank(self, text: str, constraints: SearchConstraints | None = None) -> list[Abstract]:
        """Documents with a positive score, best first, ties by PMID."""
        constraints = constraints or SearchConstraints()
        scores = np.round(self._ranker.scores(text), 12)  # float noise must not beat PMID
        hits = np.flatnonzero(scores > 0)
        ranked = []
        for i in hits[np.lexsort((self._pmid_rank[hits], -scores[hits]))]:
            record = self.abstracts[i]
            if (constraints.admits_year(record.year)
                    and constraints.admits_types(record.publication_types)):
                ranked.append(record)
                if len(ranked) == constraints.max_results:
                    break
        return ranked

    def search(self, query: Query, constraints: SearchConstraints | None = None) -> ListCursor:
        constraints = constraints or SearchConstraints()
        ranked = self.rank(query_text(query), constraints)
        if not ranked:
            raise EmptyResult(f"no abstract in the local corpus matches {query_text(query)!r}")
        return ListCursor(ranked, constraints.batch_size or self.batch_size)


def read_jsonl_corpus(path: Path | str) -> list[Abstract]:
    """Rows: pmid, title, abstract, optional year, mesh and publication_types."""
    try:
        return [_jsonl_record(row, f"{path}:{number}") for number, row in read_jsonl(path)]
    except JsonlError as error:
        raise CorpusError(str(error)) from None


def read_abstract_rows(path: Path | str) -> Iterator[Abstract]:
    """The abstracts of a JSONL file one at a time, read leniently for extracting evidence
    from them (`dacg extract abstracts`): a pmid, and optionally a title, the text as
    'abstract' or 'text', and a year (kept when it is an integer). CorpusError names a
    line without a pmid; JsonlError, a line that is not a JSON object."""
    for number, row in read_jsonl_objects(path):
        if "pmid" not in row:
            raise CorpusError(f"{path}:{number}: missing field 'pmid'")
        year = row.get("year")
        yield Abstract(str(row["pmid"]), str(row.get("title") or ""),
                       str(row.get("abstract") or row.get("text") or ""),
                       year if isinstance(year, int) else None)


def _jsonl_record(row: Any, where: str) -> Abstract:
    if not isinstance(row, dict):
        raise CorpusError(f"{where}: expected an object")
    pmid = str(row.get("pmid", "")).strip()
    if not pmid:
        raise CorpusError(f"{where}: missing 'pmid'")
    title, text = row.get("title", ""), row.get("abstract", "")
    if not isinstance(title, str) or not isinstance(text, str):
        raise CorpusError(f"{where}: 'title' and 'abstract' must be text")
    year = row.get("year")
    if year is not None and (isinstance(year, bool) or not isinstance(year, int)):
        raise CorpusError(f"{where}: 'year' must be an integer")
    return Abstract(pmid=pmid, title=title, text=text, year=year,
                    publication_types=_strings(row.get("publication_types"), where),
                    mesh=_strings(row.get("mesh"), where))


def _strings(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CorpusError(f"{where}: 'mesh' and 'publication_types' must be lists of text")
    return tuple(value)


def read_xml_dir(path: Path | str) -> list[Abstract]:
    """Every PubMed XML file (*.xml, *.xml.gz) in a folder, in file-name order."""
    folder = Path(path)
    if not folder.is_dir():
        raise CorpusError(f"{folder}: not a folder")
    records: list[Abstract] = []
    for file in sorted(folder.iterdir()):
        if not file.name.endswith((".xml", ".xml.gz")):
            continue
        try:
            data = file.read_bytes()
            records.extend(parse_pubmed_xml(
                gzip.decompress(data) if file.name.endswith(".gz") else data))
        except SourceError as exc:
            raise CorpusError(f"{file}: {exc}") from None
        except (OSError, EOFError, zlib.error) as exc:
            raise CorpusError(f"{file}: not a readable gzip file ({exc})") from None
    return records

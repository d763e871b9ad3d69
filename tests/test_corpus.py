"""Local corpora: JSONL and PubMed XML folders, ranked with TF-IDF, ties by PMID."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.model import Abstract, Entity, Query
from pipeline.resources import SHARED_DATA
from pipeline.retrieval.corpus import CorpusError, LocalCorpus, read_jsonl_corpus
from pipeline.retrieval.source import EmptyResult, SearchConstraints

METAPUB = SHARED_DATA / "eutils" / "metapub"
needs_data = pytest.mark.skipif(not METAPUB.is_dir(), reason="../shared/data is absent")

ROWS = [
    {"pmid": "300", "title": "Metformin and HbA1c in type 2 diabetes",
     "abstract": "Metformin lowered HbA1c compared with placebo.", "year": 2015,
     "mesh": ["Metformin", "Glycated Hemoglobin"]},
    {"pmid": "20", "title": "Aspirin and stroke", "abstract": "Aspirin reduced stroke.",
     "year": 2012},
    {"pmid": "3", "title": "Aspirin and stroke", "abstract": "Aspirin reduced stroke.",
     "year": 2019, "publication_types": ["Review"]},
    {"pmid": "41", "title": "Exercise in older adults", "abstract": "Walking improved mood.",
     "year": 2008},
]


def query(intervention: str, outcome: str) -> Query:
    return Query(Entity.from_name(intervention), Entity.from_name(outcome))


@pytest.fixture
def corpus_file(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS) + "\n", encoding="utf-8")
    return path


def test_jsonl_rows_become_abstracts(corpus_file: Path) -> None:
    records = read_jsonl_corpus(corpus_file)
    assert records[0] == Abstract("300", ROWS[0]["title"], ROWS[0]["abstract"],  # type: ignore[arg-type]
                                  2015, (), ("Metformin", "Glycated Hemoglobin"))
    assert [r.pmid for r in records] == ["300", "20", "3", "41"]


def test_ranking_puts_the_relevant_abstract_first_and_breaks_ties_by_pmid(
        corpus_file: Path) -> None:
    corpus = LocalCorpus.from_jsonl(corpus_file, batch_size=1)
    assert [a.pmid for a in corpus.rank("metformin HbA1c")] == ["300"]
    cursor = corpus.search(query("aspirin", "stroke"))
    assert [a.pmid for a in cursor.next_batch()] == ["3"]  # identical texts: PMID 3 < 20
    assert [a.pmid for a in cursor.next_batch()] == ["20"]
    assert cursor.next_batch() == [] and cursor.exhausted


def test_constraints_filter_and_cap(corpus_file: Path) -> None:
    corpus = LocalCorpus.from_jsonl(corpus_file)
    aspirin = query("aspirin", "stroke")
    assert [a.pmid for a in corpus.search(aspirin, SearchConstraints(min_year=2015)
                                          ).next_batch()] == ["3"]
    assert [a.pmid for a in corpus.search(aspirin, SearchConstraints(max_results=1)
                                          ).next_batch()] == ["3"]
    reviews = SearchConstraints(publication_types=("review",))
    assert corpus.search(aspirin, reviews).total == 1
    with pytest.raises(EmptyResult):
        corpus.search(aspirin, SearchConstraints(max_year=2010))
    with pytest.raises(EmptyResult):
        corpus.search(query("zinc", "common cold"))


@pytest.mark.parametrize(("line", "message"), [
    ("{not json", "bad.jsonl:2: not valid JSON"),
    ('{"title": "x", "abstract": "y"}', "bad.jsonl:2: missing 'pmid'"),
    ('{"pmid": "1", "title": "x", "abstract": "y", "year": "2010"}', "'year' must be"),
    ('{"pmid": "1", "title": "x", "abstract": "y", "mesh": "Humans"}', "lists of text"),
])
def test_bad_rows_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(ROWS[0]) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=message):
        read_jsonl_corpus(path)


def test_empty_corpus_matches_nothing() -> None:
    with pytest.raises(EmptyResult):
        LocalCorpus([]).search(query("aspirin", "stroke"))


@needs_data
def test_xml_folder_corpus_is_deterministic() -> None:
    corpus = LocalCorpus.from_xml_dir(METAPUB)
    assert len(corpus) == 163  # one file is an empty answer
    target = next(a for a in corpus.abstracts if len(a.title.split()) > 6)
    ranked = corpus.rank(target.title)
    assert ranked[0].pmid == target.pmid
    again = LocalCorpus.from_xml_dir(METAPUB).rank(target.title)
    assert [a.pmid for a in again] == [a.pmid for a in ranked]
    cursor = corpus.search(query(target.title.split()[0], target.title.split()[-1]),
                           SearchConstraints(batch_size=3))
    assert 0 < len(cursor.next_batch()) <= 3

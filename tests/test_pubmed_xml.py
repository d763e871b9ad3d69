"""PubMed XML parsing on real records (metapub, Biopython) and on the awkward cases."""

from __future__ import annotations

import pytest

from pipeline.resources import SHARED_DATA
from pipeline.retrieval.pubmed_xml import EUtilsError, parse_esearch, parse_pubmed_xml

EUTILS = SHARED_DATA / "eutils"
needs_data = pytest.mark.skipif(not EUTILS.is_dir(), reason="../shared/data is absent")


def article(inner: str, pmid: str = "1") -> bytes:
    return (f'<?xml version="1.0" ?><PubmedArticleSet><PubmedArticle><MedlineCitation>'
            f'<PMID Version="1">{pmid}</PMID><Article>{inner}</Article></MedlineCitation>'
            f'</PubmedArticle></PubmedArticleSet>').encode()


@needs_data
def test_every_metapub_record_parses() -> None:
    files = sorted((EUTILS / "metapub").glob("*.xml"))
    assert len(files) == 164
    with_text, empty = 0, []
    for file in files:
        data = file.read_bytes()
        records = parse_pubmed_xml(data)
        if not records:  # NCBI answers an empty set for a PMID it no longer serves
            empty.append(file.stem)
            continue
        (record,) = records
        assert record.pmid == file.stem
        assert record.title
        assert record.year is not None and 1800 < record.year < 2100
        assert bool(record.text) == (b"<AbstractText" in data)
        assert len(record.mesh) == data.count(b"<DescriptorName")
        with_text += bool(record.text)
    assert empty == ["37909814"]
    assert with_text == 163 - 18  # 18 records have no abstract


@needs_data
def test_biopython_efetch_files_parse() -> None:
    counts = {f.name: len(parse_pubmed_xml(f.read_bytes()))
              for f in sorted((EUTILS / "biopython").glob("pubmed*.xml"))}
    assert counts == {"pubmed1.xml": 2, "pubmed2.xml": 2, "pubmed4.xml": 1, "pubmed5.xml": 1,
                      "pubmed6.xml": 1, "pubmed7.xml": 1}
    (record,) = parse_pubmed_xml((EUTILS / "biopython" / "pubmed5.xml").read_bytes())
    assert record.pmid == "28775130" and record.year == 2018
    sections = record.text.split("\n")
    assert [s.split(":", 1)[0] for s in sections] == [
        "OBJECTIVES", "METHODS", "RESULTS", "CONCLUSIONS"]


@needs_data
def test_esearch_files_parse() -> None:
    biopython = EUTILS / "biopython"
    first = parse_esearch((biopython / "esearch1.xml").read_bytes())
    assert (first.count, len(first.ids), first.webenv) == (63, 20, None)
    history = parse_esearch((biopython / "esearch2.xml").read_bytes())
    assert (history.webenv, history.query_key) == ("MCID_6927d6e7fee3e90f880ec190", "1")
    paged = parse_esearch((biopython / "esearch3.xml").read_bytes())
    assert (paged.count, paged.retstart) == (2651, 6)
    empty = parse_esearch((biopython / "esearch8.xml").read_bytes())
    assert empty.count == 0 and empty.errors == ("PhraseNotFound: abcXYZ",)


def test_structured_abstract_keeps_labels_and_inline_markup() -> None:
    data = article('<ArticleTitle>Effect of <i>Lactobacillus</i> on IL-1β.</ArticleTitle>'
                   '<Abstract><AbstractText Label="BACKGROUND">Counts of 10<sup>9</sup> '
                   'CFU/m<sup>2</sup> and CO<sub>2</sub>.</AbstractText>'
                   '<AbstractText Label="RESULTS" NlmCategory="RESULTS">Lower  '
                   '<b>risk</b>\n (P &lt; 0.05).</AbstractText></Abstract>')
    (record,) = parse_pubmed_xml(data)
    assert record.title == "Effect of Lactobacillus on IL-1β."
    assert record.text == ("BACKGROUND: Counts of 10^9 CFU/m^2 and CO2.\n"
                           "RESULTS: Lower risk (P < 0.05).")


def test_missing_abstract_and_medline_date() -> None:
    data = article('<Journal><JournalIssue><PubDate><MedlineDate>1998 Dec-1999 Jan'
                   '</MedlineDate></PubDate></JournalIssue></Journal>'
                   '<ArticleTitle>[Title in translation].</ArticleTitle>'
                   '<PublicationTypeList><PublicationType>Review</PublicationType>'
                   '</PublicationTypeList>')
    (record,) = parse_pubmed_xml(data)
    assert (record.text, record.year, record.publication_types) == ("", 1998, ("Review",))


def test_book_article() -> None:
    data = (b'<PubmedArticleSet><PubmedBookArticle><BookDocument><PMID>20301295</PMID>'
            b'<ArticleTitle>Hereditary Breast Cancer</ArticleTitle><Book><PubDate><Year>2022'
            b'</Year></PubDate><BookTitle>GeneReviews</BookTitle></Book><Abstract>'
            b'<AbstractText Label="SUMMARY">Text.</AbstractText></Abstract></BookDocument>'
            b'</PubmedBookArticle></PubmedArticleSet>')
    (record,) = parse_pubmed_xml(data)
    assert (record.pmid, record.title, record.year, record.text) == (
        "20301295", "Hereditary Breast Cancer", 2022, "SUMMARY: Text.")


@pytest.mark.parametrize(("data", "message"), [
    (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'
     b'<PubmedArticleSet>&lol2;</PubmedArticleSet>', "declares entities"),
    (b"<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1", "truncated"),
    (b"<eFetchResult><ERROR>Unable to obtain query #1</ERROR></eFetchResult>",
     "Unable to obtain query"),
    (b"<html><body>Bad gateway</body></html>", "unexpected XML root"),
])
def test_bad_documents_are_refused(data: bytes, message: str) -> None:
    with pytest.raises(EUtilsError, match=message):
        parse_pubmed_xml(data)

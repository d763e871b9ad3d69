"""Parse E-utilities XML (ESearch results and PubMed EFetch records) into plain records.

Real records are messy: abstracts may be missing, split into labelled sections, or carry
inline markup (<i>, <sup>, <sub>), and dates come as Year or free-text MedlineDate. The
parser tolerates all of that but refuses XML that declares entities (billion laughs).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from pipeline.model import Abstract
from pipeline.retrieval.source import SourceError


class EUtilsError(SourceError):
    """NCBI answered, but with an error, an ErrorList or XML we cannot read."""


@dataclass(frozen=True, slots=True)
class ESearchResult:
    count: int
    retstart: int
    ids: tuple[str, ...]
    webenv: str | None
    query_key: str | None
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    translation: str = ""


_YEAR = re.compile(r"\b(1[89]\d\d|2\d\d\d)\b")
_SPACE = re.compile(r"\s+")


def parse_xml(data: bytes, what: str) -> ET.Element:
    """Parse untrusted XML: entity declarations are refused before expat sees them."""
    if b"<!ENTITY" in data:
        raise EUtilsError(f"{what}: XML declares entities; refusing to expand them")
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise EUtilsError(f"{what}: malformed or truncated XML ({exc})") from None


def _check_error(root: ET.Element, what: str) -> None:
    """E-utilities report hard failures as an <ERROR> root or a top-level <ERROR> child."""
    node = root if root.tag == "ERROR" else root.find("ERROR")
    if node is not None:
        raise EUtilsError(f"{what}: NCBI error: {_clean(node.text or '') or 'unspecified'}")


def parse_esearch(data: bytes) -> ESearchResult:
    root = parse_xml(data, "esearch")
    _check_error(root, "esearch")
    if root.tag != "eSearchResult":
        raise EUtilsError(f"esearch: unexpected XML root <{root.tag}>")
    errors = tuple(f"{node.tag}: {_clean(node.text or '')}"
                   for node in root.findall("ErrorList/*"))
    warnings = tuple(f"{node.tag}: {_clean(node.text or '')}"
                     for node in root.findall("WarningList/*"))
    try:
        count = int(root.findtext("Count", "0"))
        retstart = int(root.findtext("RetStart", "0"))
    except ValueError:
        raise EUtilsError("esearch: Count or RetStart is not a number") from None
    return ESearchResult(
        count=count,
        retstart=retstart,
        ids=tuple(_clean(node.text or "") for node in root.findall("IdList/Id")),
        webenv=root.findtext("WebEnv"),
        query_key=root.findtext("QueryKey"),
        errors=errors,
        warnings=warnings,
        translation=_clean(root.findtext("QueryTranslation", "")),
    )


def parse_pubmed_xml(data: bytes) -> list[Abstract]:
    """Every PubmedArticle / PubmedBookArticle of an EFetch answer, in document order."""
    root = parse_xml(data, "efetch")
    _check_error(root, "efetch")
    if root.tag != "PubmedArticleSet":
        raise EUtilsError(f"efetch: unexpected XML root <{root.tag}>")
    records: list[Abstract] = []
    for node in root:
        if node.tag == "PubmedArticle":
            records.append(_article(node))
        elif node.tag == "PubmedBookArticle":
            records.append(_book_article(node))
    return records


def _article(node: ET.Element) -> Abstract:
    citation = _require(node, "MedlineCitation")
    article = _require(citation, "Article")
    pmid = _clean(citation.findtext("PMID", ""))
    title = _render(article.find("ArticleTitle")) or _render(article.find("VernacularTitle"))
    year = (_year(article.find("Journal/JournalIssue/PubDate"))
            or _year(article.find("ArticleDate"))
            or _year(node.find("PubmedData/History/PubMedPubDate[@PubStatus='pubmed']")))
    return Abstract(
        pmid=_require_pmid(pmid),
        title=title,
        text=_abstract_text(article.find("Abstract")),
        year=year,
        publication_types=_texts(article, "PublicationTypeList/PublicationType"),
        mesh=_texts(citation, "MeshHeadingList/MeshHeading/DescriptorName"),
    )


def _book_article(node: ET.Element) -> Abstract:
    document = _require(node, "BookDocument")
    title = _render(document.find("ArticleTitle")) or _render(document.find("Book/BookTitle"))
    return Abstract(
        pmid=_require_pmid(_clean(document.findtext("PMID", ""))),
        title=title,
        text=_abstract_text(document.find("Abstract")),
        year=_year(document.find("Book/PubDate")),
        publication_types=_texts(document, "PublicationType"),
    )


def _require(node: ET.Element, path: str) -> ET.Element:
    found = node.find(path)
    if found is None:
        raise EUtilsError(f"efetch: record without <{path}>")
    return found


def _require_pmid(pmid: str) -> str:
    if not pmid:
        raise EUtilsError("efetch: record without a PMID")
    return pmid


def _texts(node: ET.Element, path: str) -> tuple[str, ...]:
    return tuple(text for child in node.findall(path) if (text := _render(child)))


def _abstract_text(abstract: ET.Element | None) -> str:
    """Structured abstracts keep their section labels ("METHODS: ...") one per line."""
    if abstract is None:
        return ""
    sections = []
    for part in abstract.findall("AbstractText"):
        text = _render(part)
        label = part.get("Label")
        if text:
            sections.append(f"{label}: {text}" if label else text)
    return "\n".join(sections)


def _year(node: ET.Element | None) -> int | None:
    if node is None:
        return None
    text = node.findtext("Year") or node.findtext("MedlineDate") or ""
    match = _YEAR.search(text)
    return int(match.group(1)) if match else None


def _render(node: ET.Element | None) -> str:
    """Text with inline markup flattened; superscripts keep a caret (10^9, m^2)."""
    if node is None:
        return ""
    return _clean("".join(_pieces(node)))


def _pieces(node: ET.Element) -> list[str]:
    pieces = [node.text or ""]
    for child in node:
        inner = "".join(_pieces(child))
        pieces.append("^" + inner if child.tag == "sup" and inner.strip() else inner)
        pieces.append(child.tail or "")
    return pieces


def _clean(text: str) -> str:
    return _SPACE.sub(" ", text).strip()

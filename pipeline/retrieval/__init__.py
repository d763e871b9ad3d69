"""Literature sources behind one interface: PubMed, local corpora, MedEvidence, simulator."""

from pipeline.retrieval.source import (
    Cursor,
    EmptyResult,
    ListCursor,
    LiteratureSource,
    SearchConstraints,
    SourceError,
    SourceUnavailable,
)

__all__ = ["Cursor", "EmptyResult", "ListCursor", "LiteratureSource", "SearchConstraints",
           "SourceError", "SourceUnavailable"]

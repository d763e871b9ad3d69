"""Naming what the extractor discovers itself: a span of the abstract (a mediator the
intervention changed) becomes an Entity, the MeSH descriptor scispacy's EntityLinker gave
it when the pipeline has an NER, else its name resolved like any caller's name (MeSH UI
when grounded, the normalised name otherwise).
"""

from __future__ import annotations

from collections.abc import Callable

from spacy.language import Language
from spacy.tokens import Doc

from pipeline.extraction.document import ParsedAbstract
from pipeline.extraction.lexicon import GENERIC_OUTCOME_WORDS
from pipeline.extraction.nlp import has_entities
from pipeline.extraction.resolve import EntityResolver
from pipeline.model import Entity, InvalidEvidence


def ner_linker(nlp: Language, resolver: EntityResolver,
               threshold: float) -> Callable[[Doc], Doc] | None:
    """scispacy's EntityLinker over our MeSH index, when the pipeline finds NER entities
    and the resolver has a MeSH index with a linker; else None.

    Args:
        nlp: the spaCy pipeline; only one with an NER component gets a linker.
        resolver: its MeSH index supplies the linker's knowledge base.
        threshold: the cosine similarity (0-1) a link needs.
    """
    mesh = resolver.mesh
    if has_entities(nlp) and mesh and mesh.linker:
        return mesh.linker.entity_linker(threshold)
    return None


class SpanNamer:
    """Turns spans of a parsed abstract into entities."""

    def __init__(self, resolver: EntityResolver, linked: bool) -> None:
        """Args:
            resolver: grounds a span's name (MeSH UI, else the normalised name).
            linked: whether docs went through scispacy's EntityLinker (`ner_linker`), so
                that their entities carry MeSH candidates.
        """
        self.resolver = resolver
        self.linked = linked

    def span_entity(self, parsed: ParsedAbstract, start: int, end: int) -> Entity | None:
        """The entity a discovered span names: the MeSH descriptor scispacy's linker gave
        it (pipelines with an NER), else its name resolved like any other."""
        name = _phrase_name(parsed, start, end)
        mesh = self.resolver.mesh
        for ent in parsed.doc.ents if self.linked else ():
            if (ent.start, ent.end) == (start, end) and ent._.kb_ents and mesh is not None:
                descriptor = mesh.descriptor(ent._.kb_ents[0][0])
                if descriptor is not None:
                    return Entity(descriptor.ui, name, grounded=True)
        return self.entity(name)

    def entity(self, name: str) -> Entity | None:
        """The resolved entity, or None for a name made only of generic words ('levels',
        'rate') or without a real word."""
        words = name.split()
        if not words or all(w.lower() in GENERIC_OUTCOME_WORDS for w in words):
            return None
        if not any(len(w) > 2 and w[0].isalpha() for w in words):
            return None
        try:
            return self.resolver.resolve(name)
        except InvalidEvidence:
            return None


def _phrase_name(parsed: ParsedAbstract, start: int, end: int) -> str:
    """The phrase as written, or the long form when it is an abbreviation the abstract
    defines ('AAD' -> 'antibiotic-associated diarrhoea')."""
    text = parsed.text[parsed.token_chars[start]:parsed.token_ends[end - 1]]
    for short, long_form in parsed.abbreviations:
        if short == text:
            return long_form
    return text

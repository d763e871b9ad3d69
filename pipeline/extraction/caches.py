"""The two caches a rule extractor keeps across abstracts, each emptied when it outgrows
its limit (ExtractorSettings.word_cache, .terms_cache).

A run reads thousands of abstracts about the same few entities in the same vocabulary:
decoding a word's string and stemming it, or building an entity's search terms, once
per run instead of once per abstract is a large share of a warm reading's speed.
"""

from __future__ import annotations

from spacy.tokens import Doc

from pipeline.extraction.mentions import Terms, reworded, stem
from pipeline.extraction.resolve import EntityResolver
from pipeline.model import Entity


class WordCache:
    """Lower-case words and their stems by spaCy string id."""

    def __init__(self, limit: int) -> None:
        """Args:
            limit: how many distinct words to remember before forgetting them all.
        """
        self.limit = limit
        self._words: dict[int, str] = {}  # lower-case id -> word
        self._stems: dict[int, str] = {}  # lower-case id -> its stem

    def words_and_stems(self, doc: Doc, ids: list[int]) -> tuple[list[str], list[str]]:
        """The doc's lower-case words and their stems, from their string ids. Known ids
        reuse their strings (the StringStore decodes a new str on every lookup)."""
        words, stems = self._words, self._stems
        if len(words) > self.limit:
            words.clear()
            stems.clear()
        strings = doc.vocab.strings
        for key in set(ids).difference(words):
            word = words[key] = strings[key]
            stems[key] = stem(word)
        return list(map(words.__getitem__, ids)), list(map(stems.__getitem__, ids))


class TermsCache:
    """Each entity's search terms: its name, its aliases and, when grounded, its MeSH
    entry terms."""

    def __init__(self, resolver: EntityResolver, limit: int) -> None:
        """Args:
            resolver: gives a grounded entity's MeSH entry terms as aliases.
            limit: how many entities to remember before forgetting them all.
        """
        self.resolver = resolver
        self.limit = limit
        self._terms: dict[tuple[Entity, tuple[str, ...]], Terms] = {}

    def terms(self, entity: Entity) -> Terms:
        key = (entity, entity.aliases)
        terms = self._terms.get(key)
        if terms is None:
            if len(self._terms) > self.limit:
                self._terms.clear()
            terms = self._terms[key] = reworded(
                Terms.of(entity, self.resolver.aliases(entity)))
        return terms

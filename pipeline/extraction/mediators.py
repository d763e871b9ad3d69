"""Mediator discovery: when the caller names no mediators, a result sentence in which the
intervention changes something other than the outcome ('Zinc also reduced
interleukin-6 levels') proposes that something as a mediator, read like any outcome.
These intervention -> M rows give the graph the first hop of a two-hop path.
"""

from __future__ import annotations

from collections.abc import Iterator

from pipeline.extraction.document import ParsedAbstract
from pipeline.extraction.lexicon import (
    CHANGE_VERBS,
    COPULAS,
    GENERIC_OUTCOME_WORDS,
    LEADING_SKIPS,
    MECHANISM_NOUNS,
    PHRASE_STOPPERS,
)
from pipeline.extraction.locate import Mentions
from pipeline.extraction.mentions import Mention
from pipeline.extraction.naming import SpanNamer
from pipeline.extraction.rules import Candidate, read
from pipeline.extraction.settings import ExtractorSettings
from pipeline.model import Entity, Query


def discover(parsed: ParsedAbstract, query: Query, intervention: Mentions,
             outcome: Mentions, comparator: Mentions, namer: SpanNamer,
             settings: ExtractorSettings) -> Iterator[tuple[Entity, Candidate]]:
    """Each mediator a readable sentence without the outcome names as the object of the
    first change verb after the intervention ('X also raised M'), with the rules'
    reading of X -> M in that sentence; at most one per sentence, in reading order."""
    words = parsed.words
    for start, head_mentions in intervention.items():
        if start in outcome or not parsed.readable(start):
            continue
        end = parsed.bounds[start]
        # the verb before the sentence is built (its lexicon and statistics): four in five
        # have none
        verb = next((i for i in range(max(m.end for m in head_mentions), end)
                     if words[i] in CHANGE_VERBS and words[i - 1] not in COPULAS), None)
        if verb is None:
            continue
        sentence = parsed.sentence(start)
        if sentence.is_aim:
            continue
        phrase = _entity_span(parsed, verb + 1, end, settings)
        mediator = namer.span_entity(parsed, *phrase) if phrase else None
        if phrase is None or mediator is None or mediator.id in (
                query.intervention.id, query.outcome.id):
            continue
        tail = Mention(phrase[0], phrase[1], settings.discovered_match_score)
        arms = tuple(comparator.get(start, []))
        yield mediator, Candidate(sentence, tail, tuple(head_mentions), arms,
                                  read(sentence, tail, head_mentions, arms))


def _entity_span(parsed: ParsedAbstract, start: int, limit: int,
                 settings: ExtractorSettings) -> tuple[int, int] | None:
    """What a cue governs: the NER's entity right after it when the pipeline has one
    (a trained model), else the rule-based object phrase."""
    for ent in parsed.doc.ents:
        if start <= ent.start < start + settings.entity_lookahead and ent.end <= limit:
            return ent.start, ent.end
    return _object_phrase(parsed, start, limit, settings.max_mediator_tokens)


def _object_phrase(parsed: ParsedAbstract, start: int, limit: int,
                   max_tokens: int) -> tuple[int, int] | None:
    """The tokens after a cue up to a preposition or punctuation, without leading
    determiners or a measure or mechanism word + 'of': 'raised the levels of endothelial
    glycocalyx integrity (SMD ...' -> 'endothelial glycocalyx integrity', 'through
    inhibition of rhinovirus replication' -> 'rhinovirus replication'. Hyphenated words
    stay whole; at most `max_tokens` words."""
    words, chars, ends = parsed.words, parsed.token_chars, parsed.token_ends
    i = start
    while i < limit and words[i] in LEADING_SKIPS:
        i += 1
    while i + 1 < limit and words[i + 1] == "of" and (
            words[i] in GENERIC_OUTCOME_WORDS or words[i] in MECHANISM_NOUNS):
        i += 2
    end, count = i, 0
    while end < limit and count < max_tokens:
        word = words[end]
        joined = end > i and chars[end] == ends[end - 1] and word in ("-", "/")
        if not joined and (word in PHRASE_STOPPERS or not any(ch.isalnum() for ch in word)):
            break
        if joined and not (end + 1 < limit and chars[end + 1] == ends[end]):
            break
        end += 1
        count += 0 if joined else 1
    return (i, end) if end > i else None

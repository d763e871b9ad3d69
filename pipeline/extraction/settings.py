"""The rule extractor's tuning values, in one typed, frozen object.

They were module constants spread over the extractor; gathering them lets a caller (a
benchmark, an experiment, a test) run an extractor with other values without patching
modules, and lets a reader see every knob and its unit in one place. The defaults are the
values the shipped confidence model and the reported scores were measured with.
(Environment settings, such as the database URI, are `pipeline/settings.py`: another
thing.)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ExtractorSettings:
    """How loosely names are matched, how much implied or discovered readings are
    trusted, which sentences are read, and how large the caches grow.

    Shares are of the weighted content words of a name (measure words weigh 0.25);
    factors multiply a reading's confidence."""

    # share of the outcome's content words a sentence must hold to mention it (0-1)
    fuzzy_threshold: float = 0.34
    # the same share for an arm, counted on the words that tell the arms apart (0-1)
    arm_threshold: float = 0.34
    # confidence factor for a sentence that omits the intervention the abstract names
    implicit_head_factor: float = 0.85
    # confidence factor for it when the abstract never names the intervention at all
    unseen_head_factor: float = 0.7
    # confidence of a null said of every outcome when no sentence names the outcome
    every_outcome_confidence: float = 0.25
    # longest sentence read, in tokens; longer ones are run-on text without boundaries
    max_read_tokens: int = 250
    # confidence factor for an intervention -> mediator row the extractor discovered
    discovered_factor: float = 0.9
    # match score (0-1) given to the phrase a change verb governs ('also reduced M')
    discovered_match_score: float = 0.9
    # tokens after a change verb in which an NER entity is taken as what it governs
    entity_lookahead: int = 4
    # cosine similarity (0-1) scispacy's EntityLinker needs to ground an NER entity
    entity_link_threshold: float = 0.85
    # longest discovered mediator phrase, in words (a hyphen or slash joins, not counts)
    max_mediator_tokens: int = 8
    # distinct lower-case words remembered with their stems before the cache is emptied
    word_cache: int = 200_000
    # entities remembered with their search terms before the cache is emptied
    terms_cache: int = 10_000

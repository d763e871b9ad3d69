"""A finding said of every outcome at once: a null ('there was no significant difference
in primary and secondary outcomes', 'no difference in efficacy was seen', 'LI is as
effective as PI') or a superiority ('active treatments were superior to placebo for all
efficacy measures').

A review asks about one outcome; an abstract that found no difference on any of them, or
on efficacy as a whole, often names none. When no sentence about the outcome gives a row,
such a sentence is the study's finding for it (the extractor trusts it less than a named
one). Not a null on 'other' outcomes or one with an exception ('except that ...'), which
say the outcomes named elsewhere differed; not a null with a significant statistic, a
change within each arm or a comparison at baseline; and efficacy is not said of a harm
('adverse events') the question asks about. A superiority says the trial's measures of
benefit went the treatment's way, so it reads only where the outcome's good side is known
and only when nothing after the comparator names another measure.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.extraction.clauses import breaks, next_break, outside_parentheses
from pipeline.extraction.mentions import Mention
from pipeline.extraction.sentence import Sentence
from pipeline.extraction.stats import Significance

# Nouns that stand for a trial's outcomes together when a quantifier leads them
# ('any of the outcome measures', 'primary and secondary end points', 'all parameters').
ENDPOINT_NOUNS = frozenset({"outcome", "outcomes", "endpoint", "endpoints", "end-points",
                            "points", "parameters", "variables", "measures", "measurements",
                            "criteria"})
ENDPOINT_QUANTIFIERS = frozenset({"any", "all", "primary", "secondary", "main", "efficacy",
                                  "clinical", "study"})
QUANTIFIER_REACH = 4  # tokens before an endpoint noun in which its quantifier stands
# Words for how well a treatment works, whatever the outcome.
EFFICACY_WORDS = frozenset({"efficacy", "effectiveness", "effective", "efficacious",
                            "benefit", "benefits"})
# A null on the rest of the outcomes, or with an exception: the named ones differed.
EXCEPTION_WORDS = frozenset({"other", "others", "remaining", "rest", "except", "apart",
                             "besides", "excluding"})
# Outcome words of a harm, of which a null on efficacy says nothing.
HARM_WORDS = frozenset({"adverse", "side", "toxicity", "toxicities", "tolerability",
                        "safety", "complication", "complications", "reaction", "reactions"})
REACH_BEFORE = 6  # tokens before a null for a subject ('the efficacy of A and B was similar')
# 'superior to', 'better than', 'more effective than': which side wins, and its link word
SUPERIORITY = {"superior": (1, "to"), "inferior": (-1, "to"), "better": (1, "than"),
               "worse": (-1, "than")}
COMPARATIVES = {"more": 1, "less": -1}
# 'active treatments', 'both active drugs': every treated arm, the one asked about among them
ACTIVE_ARMS = frozenset({"active", "treatments", "drugs", "agents", "doses", "regimens"})
COMPARATOR_REACH = 3  # tokens from the link word to the comparator ('to the placebo group')
# words that may follow the comparator without naming another measure ('for all efficacy
# measures', 'in terms of overall efficacy', 'on every end point')
SAID_OF_ALL = (ENDPOINT_NOUNS | ENDPOINT_QUANTIFIERS | EFFICACY_WORDS
               | {"for", "on", "in", "of", "at", "the", "every", "each", "terms", "respect",
                  "regard", "to", "overall", "group", "groups", "arm", "arms", "end",
                  "statistically", "significantly", ".", ")", "]"})
# Every word that can make a sentence one; a sentence with none is not built.
TRIGGERS = ENDPOINT_NOUNS | EFFICACY_WORDS | frozenset(SUPERIORITY)


def asks_harm(outcome_words: Sequence[str]) -> bool:
    """Whether the outcome asked about is a harm ('adverse events', 'side effects')."""
    return not HARM_WORDS.isdisjoint(outcome_words)


def null_on_every_outcome(sentence: Sentence, harm: bool) -> bool:
    """Whether the sentence states a null on the trial's outcomes together, or on its
    efficacy (not when the outcome asked about is a harm)."""
    words = sentence.words
    first, end = sentence.start, sentence.end
    if (not sentence.nulls or sentence.is_aim or sentence.at_baseline or sentence.within
            or not EXCEPTION_WORDS.isdisjoint(words[first:end])
            or any(s.significance is Significance.SIGNIFICANT for s in sentence.stats)):
        return False
    for null_start, null_end in sentence.nulls:
        # its subject just before it and its object, in its own clause
        before = max(first, null_start - REACH_BEFORE)
        while any(breaks(words, i) for i in range(before, null_start)):
            before += 1
        for i in range(before, next_break(words, null_end, end)):
            if words[i] in EFFICACY_WORDS and not harm:
                return True
            if words[i] in ENDPOINT_NOUNS and any(
                    words[j] in ENDPOINT_QUANTIFIERS
                    for j in range(max(first, i - QUANTIFIER_REACH), i)):
                return True
    return False


def superior_on_every_outcome(sentence: Sentence, heads: Sequence[Mention],
                              comparators: Sequence[Mention]) -> int | None:
    """+1 when the sentence says the treatment (named, or among 'the active treatments')
    beat the comparator on the whole, -1 when the comparator beat it, else None: a
    superiority with nothing after the comparator but words for every outcome."""
    words = sentence.words
    first, end = sentence.start, sentence.end
    if (sentence.nulls or sentence.is_aim or sentence.at_baseline or sentence.within
            or sentence.hedged
            or any(s.significance is Significance.NOT_SIGNIFICANT for s in sentence.stats)):
        return None
    for i in range(first, end - 1):
        side, link = _superiority(words, i)
        after = i + 2 + (words[i] in COMPARATIVES)
        if not side or after > end or words[after - 1] != link:
            continue
        beaten = next((m for m in comparators if after <= m.start <= after + COMPARATOR_REACH),
                      None)
        clause_start = max((j + 1 for j in range(first, i) if breaks(words, j)), default=first)
        if beaten is None or not _subject_is_treatment(words, clause_start, i, heads):
            continue
        if all(words[j] in SAID_OF_ALL for j in outside_parentheses(
                words, beaten.end, next_break(words, beaten.end, end))):
            return side
    return None


def _superiority(words: Sequence[str], i: int) -> tuple[int, str]:
    """The side and link word of a superiority at token i ('superior' -> +1, 'to'; 'less
    effective' -> -1, 'than'), else (0, '')."""
    if words[i] in SUPERIORITY:
        return SUPERIORITY[words[i]]
    if words[i] in COMPARATIVES and words[i + 1] in EFFICACY_WORDS:
        return COMPARATIVES[words[i]], "than"
    return 0, ""


def _subject_is_treatment(words: Sequence[str], start: int, cue: int,
                          heads: Sequence[Mention]) -> bool:
    """Whether the clause before the cue names the treatment or every active arm."""
    return (any(start <= m.start < cue for m in heads)
            or "active" in words[start:cue] and not ACTIVE_ARMS.isdisjoint(
                w for w in words[start:cue] if w != "active"))


"""A null said of every outcome at once: 'there was no significant difference in primary
and secondary outcomes', 'no difference in efficacy was seen', 'LI is as effective as PI'.

A review asks about one outcome; an abstract that found no difference on any of them, or
on efficacy as a whole, often names none. When no sentence about the outcome gives a row,
such a sentence is the study's finding for it (the extractor trusts it less than a named
one). Not a null on 'other' outcomes or one with an exception ('except that ...'), which
say the outcomes named elsewhere differed; not a null with a significant statistic, a
change within each arm or a comparison at baseline; and efficacy is not said of a harm
('adverse events') the question asks about.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.extraction.clauses import breaks, next_break
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
# Every word that can make a sentence one; a sentence with none is not built.
TRIGGERS = ENDPOINT_NOUNS | EFFICACY_WORDS


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

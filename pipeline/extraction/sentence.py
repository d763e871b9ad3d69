"""A sentence as the reading rules see it: its tokens, what the lexicon and the statistics
found in it, and what the rules ask of it as a whole (an aim? hedged? said at baseline?).

A module of its own, below the parser (`document.py`), which builds it, and the rules
(`rules.py` and the modules it calls), which read it: none imports the rules to get it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.extraction.lexicon import (
    BASELINE_PHRASES,
    CHANGE_PREPOSITIONS,
    COPULAS,
    CORRELATION_WORDS,
    HEDGES,
    MEASURING_MEANS,
    MEASURING_VERBS,
    OBJECTIVE_WORDS,
)
from pipeline.extraction.stats import Significance, Statistic

# The baseline phrases by their first word: a sentence's words are looked up once each.
BASELINE_PHRASES_BY_FIRST = {first: tuple(p for p in BASELINE_PHRASES if p[0] == first)
                             for first, *_ in BASELINE_PHRASES}
# Words before 'baseline' that make it the arms' state before treatment.
BASELINE_LEADS = frozenset({"the", "mean", "median", "average"})


@dataclass(slots=True)
class Sentence:
    """One sentence of a parsed doc, with what the lexicon and the statistics found in it.
    Token positions are doc positions; statistic offsets are relative to `text`."""

    start: int
    end: int
    text: str
    char_start: int
    words: Sequence[str]
    token_chars: Sequence[int]
    nulls: list[tuple[int, int]] = field(default_factory=list)
    compares: list[tuple[int, int]] = field(default_factory=list)
    definitions: list[tuple[int, int]] = field(default_factory=list)
    stats: list[Statistic] = field(default_factory=list)
    within: list[tuple[int, int]] = field(default_factory=list)
    # a null that the next sentence says of this one's finding ('However, these
    # differences were not statistically significant.'), or that it says it was
    # significant ('This difference was statistically significant.')
    withdrawn: tuple[int, int] | None = None
    affirmed: bool = False
    # the time points of a next sentence that opens with another time and says this
    # finding's difference was gone then ('At 6-month follow-up, the difference was no
    # longer significant.')
    gone_at: frozenset[float] = frozenset()

    def offset(self, token: int) -> int:
        """A token's character offset in `text`, where statistics are placed (the
        sentence's end token: the length of `text`)."""
        if token >= self.end:
            return len(self.text)
        return self.token_chars[token] - self.char_start

    @property
    def is_aim(self) -> bool:
        """An aim, a question or a definition of outcomes (or a statement of prior
        knowledge): no finding to read."""
        if self.definitions or self.words[self.end - 1] == "?":
            return True
        if self.stats:
            return False
        words = self.words[self.start:self.end]
        if OBJECTIVE_WORDS.isdisjoint(words) and MEASURING_VERBS.isdisjoint(words):
            return False  # most sentences: neither test below can hold, no need to scan
        return any(self._objective_word(i) or self._how_measured(i)
                   for i in range(self.start, self.end))

    def _objective_word(self, i: int) -> bool:
        """An aim's word, not one that ends a hyphenated compound ('intention to
        self-examine'); 'estimate' only as a verb ('to estimate', not 'the estimate
        leaned towards harm')."""
        words = self.words
        return words[i] in OBJECTIVE_WORDS and (i == 0 or words[i - 1] != "-") and (
            words[i] != "estimate" or i > 0 and words[i - 1] == "to")

    def _how_measured(self, i: int) -> bool:
        """'Response was assessed by the Hamilton scales': how a measure was taken."""
        words = self.words
        return (words[i] in COPULAS and i + 2 < self.end and words[i + 1] in MEASURING_VERBS
                and words[i + 2] in MEASURING_MEANS)

    @property
    def relates_measures(self) -> bool:
        """A correlation between two measures, not a comparison of arms."""
        return not CORRELATION_WORDS.isdisjoint(self.words[self.start:self.end])

    @property
    def says_significant(self) -> bool:
        """'There was a significant difference in X between the groups (P < 0.01)': no
        null wording, and a significant statistic or the word."""
        return not self.nulls and (
            any(s.significance is Significance.SIGNIFICANT for s in self.stats)
            or any(w in ("significant", "significantly")
                   for w in self.words[self.start:self.end]))

    @property
    def hedged(self) -> bool:
        return not HEDGES.isdisjoint(self.words[self.start:self.end])

    @property
    def at_baseline(self) -> bool:
        """Whether it compares the arms before treatment ('similar at baseline')."""
        words = self.words
        if any(tuple(words[i:i + len(phrase)]) == phrase
               for i in range(self.start, self.end)
               for phrase in BASELINE_PHRASES_BY_FIRST.get(words[i], ())):
            return True
        if "baseline" not in words[self.start + 1:self.end]:
            return False
        # 'the baseline HRQOL scores were comparable', 'mean baseline eGFRs were similar';
        # not 'change from the baseline', 'the mean baseline-adjusted change'
        return any(words[i] in BASELINE_LEADS and words[i + 1] == "baseline"
                   and (i == self.start or words[i - 1] not in CHANGE_PREPOSITIONS)
                   and (i + 2 >= self.end or words[i + 2] not in ("-", "adjusted"))
                   for i in range(self.start, self.end - 1))

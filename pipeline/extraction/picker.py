"""Which sentence carries the study's result for an outcome?

An abstract names its outcome in its aims, its methods, its population description and
its subgroup analyses as well as in the overall comparison; about half of the rules'
misreadings were a wrong sentence read right. The picker scores each sentence that names
the outcome on a few signals (how well the outcome matched, a statistic, a comparison of
arms, a result or conclusion label, position in the abstract, against design, population
and subgroup wording) with hand-set weights, developed on the tuning half of Evidence
Inference dev only (docs/extraction.md). The scores weigh each sentence's reading when an
abstract's readings are pooled, and choose the sentence the fallback classifier reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.extraction.cues import is_amount, is_cue
from pipeline.extraction.lexicon import SIGN_OF
from pipeline.extraction.sentence import Sentence
from pipeline.extraction.stats import Significance
from pipeline.extraction.timepoints import shares_a_time, time_points

# What was done or who took part ('were randomised', 'were enrolled'), not what happened.
DESIGN_WORDS = frozenset({"randomized", "randomised", "randomly", "enrolled", "allocated",
                          "assigned", "recruited", "included", "underwent", "administered",
                          "received", "measured", "assessed", "evaluated", "recorded",
                          "collected", "screened", "eligible", "inclusion", "exclusion"})
SUBGROUP_WORDS = frozenset({"subgroup", "subgroups", "subset", "subsets", "stratified",
                            "post-hoc", "hoc", "sensitivity", "per-protocol", "exploratory",
                            "secondary", "interaction"})
# 'intention-to-treat analysis', 'ITT': the analysis of everyone randomised, not a subset
WHOLE_TRIAL_WORDS = frozenset({"intention", "intent", "itt"})
# 'between the groups', 'between-group': a comparison of arms without naming them
BETWEEN_WORDS = frozenset({"between", "between-group", "intergroup", "inter-group"})
# Words that only a reported result uses ('differed significantly', 'P = ...' aside).
RESULT_WORDS = frozenset({"significant", "significantly", "differ", "differed", "differs",
                          "different", "difference", "differences", "versus", "vs",
                          "compared", "than"})
RESULT_SECTIONS = ("RESULT", "FINDING", "EFFICACY", "SAFETY")
CONCLUSION_SECTIONS = ("CONCLUSION", "INTERPRETATION", "SUMMARY", "DISCUSSION")


@dataclass(frozen=True, slots=True)
class PickerWeights:
    """Hand-set weights of the picker's signals (a score is their sum)."""

    outcome: float = 4.0  # x the outcome mention's match score (1 for an exact name)
    intervention: float = 0.2
    comparator: float = 0.3
    statistic: float = 1.0
    significant: float = 0.3
    comparison: float = 0.6
    finding: float = 0.6  # a direction cue or a null phrase
    results: float = 0.8
    conclusion: float = -1.0  # conclusions restate and generalise; results carry the numbers
    position: float = 1.0  # x relative position in the abstract (0 first, 1 last)
    aim: float = -3.0
    design: float = -1.2  # design wording without a statistic
    subgroup: float = -0.8
    whole_trial: float = 2.5
    baseline: float = -1.5
    hedged: float = -0.3
    title: float = -1.0
    same_time: float = 1.0  # the time point the outcome names ('retention at 12 months')
    other_time: float = -1.0  # only other time points ('at 6 months')
    sharpness: float = 0.5  # pooling weight exp(sharpness * (score - best score))


@dataclass(frozen=True, slots=True)
class SentenceSignals:
    """What the picker knows about one sentence."""

    sentence: Sentence
    outcome_score: float
    intervention: bool
    comparator: bool
    section: str  # the nearest section label above it ('' if none)
    position: float  # 0 for the first sentence, 1 for the last
    title: bool  # the abstract's title (given apart, or labelled 'TITLE:')
    when: frozenset[float] = frozenset()  # the outcome's time points, in days


class SentencePicker:
    """Scores sentences by how likely they state the overall result for the outcome."""

    def __init__(self, weights: PickerWeights | None = None) -> None:
        self.weights = weights or PickerWeights()

    def score(self, signals: SentenceSignals) -> float:
        w = self.weights
        sentence = signals.sentence
        words = set(sentence.words[sentence.start:sentence.end])
        stats = sentence.stats
        section = signals.section
        score = w.outcome * signals.outcome_score
        score += w.intervention * signals.intervention + w.comparator * signals.comparator
        score += w.statistic * bool(stats)
        score += w.significant * any(s.significance is Significance.SIGNIFICANT
                                     for s in stats)
        score += w.comparison * (bool(sentence.compares) or not words.isdisjoint(BETWEEN_WORDS))
        score += w.finding * (bool(sentence.nulls) or not words.isdisjoint(SIGN_OF))
        score += w.results * any(label in section for label in RESULT_SECTIONS)
        score += w.conclusion * any(label in section for label in CONCLUSION_SECTIONS)
        score += w.position * signals.position
        score += w.aim * sentence.is_aim
        score += w.design * (not stats and not words.isdisjoint(DESIGN_WORDS))
        score += w.subgroup * (not words.isdisjoint(SUBGROUP_WORDS))
        score += w.whole_trial * (not words.isdisjoint(WHOLE_TRIAL_WORDS))
        score += w.baseline * sentence.at_baseline
        score += w.hedged * sentence.hedged
        score += w.title * (signals.title or section == "TITLE")
        if signals.when:
            named = time_points(sentence.words[sentence.start:sentence.end])
            same = shares_a_time(named, signals.when)
            score += w.same_time * same + w.other_time * (bool(named) and not same)
        return score

    @staticmethod
    def states_result(sentence: Sentence) -> bool:
        """Whether the sentence reports a result at all (a statistic, a comparison, a
        direction or null wording): a review's 'outcomes reported so far, such as X'
        does not, so the fallback classifier does not read it. Direction words that say
        no result ('a double-blind trial', 'to lower', 'most of') do not count."""
        if sentence.stats or sentence.nulls:
            return True
        words, span = sentence.words, range(sentence.start, sentence.end)
        # words that only measure an amount ('for more than a decade') compare no arms
        amounts = {j for i in span if is_amount(words, i) for j in (i, i + 1)}
        return any(start not in amounts for start, _ in sentence.compares) or any(
            i not in amounts and (words[i] in RESULT_WORDS or is_cue(words, i))
            for i in span)

    def pooling_weights(self, scores: Sequence[float]) -> list[float]:
        """Each sentence's weight in pooling: 1 for the best, less for the others."""
        if not scores:
            return []
        best = max(scores)
        sharpness = self.weights.sharpness
        return [math.exp(sharpness * (s - best)) for s in scores]

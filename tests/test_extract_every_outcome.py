"""A null said of every outcome at once: the study's finding for an outcome no sentence
names, never one over a named outcome's reading, and not said of the outcomes named
elsewhere, of a harm, at baseline or within each arm. A superiority on every measure: more
of a good outcome, less of a harmful one, and nothing for an outcome of neither kind."""

from __future__ import annotations

import pytest

from pipeline.extraction.every_outcome import asks_harm
from pipeline.extraction.extractor import RuleExtractor
from pipeline.extraction.settings import ExtractorSettings
from pipeline.model import Abstract, Entity, Query


def direct_rows(text: str, outcome: str, intervention: str = "montelukast",
                extractor: RuleExtractor | None = None) -> list[tuple[int, float]]:
    query = Query(Entity.from_name(intervention), Entity.from_name(outcome),
                  Entity.from_name("placebo"))
    rows = (extractor or RuleExtractor()).extract(Abstract("7", "", text, 2020), query)
    return [(int(r.polarity), r.confidence) for r in rows
            if (r.head.id, r.tail.id) == (query.intervention.id, query.outcome.id)]


@pytest.mark.parametrize("text", [
    "Montelukast and placebo did not differ in any of the outcome measures.",
    "There was no significant difference between montelukast and placebo in primary and "
    "secondary outcomes.",
    "No difference in efficacy was seen between patients who received montelukast and "
    "those given placebo.",
    "Montelukast was as effective as placebo.",
])
def test_a_null_on_every_outcome_is_the_finding_for_an_unnamed_one(text: str) -> None:
    # the sentence names the intervention: the settings' confidence, not lowered
    assert direct_rows(text, "itch severity") == [
        (0, ExtractorSettings().every_outcome_confidence)]


def test_without_the_intervention_named_it_is_trusted_less() -> None:
    text = "There was no significant difference in primary and secondary outcomes."
    settings = ExtractorSettings()
    # the abstract never names montelukast: the unseen-head factor applies
    assert direct_rows(text, "itch severity") == [
        (0, pytest.approx(settings.every_outcome_confidence * settings.unseen_head_factor))]


def test_a_named_outcome_keeps_its_own_reading() -> None:
    text = ("Itch was significantly reduced with montelukast compared with placebo "
            "(P < 0.01). Montelukast and placebo did not differ in any of the outcome "
            "measures at 12 weeks.")
    assert [polarity for polarity, _ in direct_rows(text, "itch")] == [-1]


@pytest.mark.parametrize(("text", "outcome"), [
    # the rest of the outcomes: the named ones differed
    ("Montelukast improved sleep; there were no differences in other outcomes.",
     "itch severity"),
    # an exception names what differed
    ("There were no significant differences in all the parameters except that heart rate "
     "was significantly lower with montelukast.", "blood pressure"),
    # efficacy says nothing of a harm
    ("No difference in efficacy was seen between montelukast and placebo.",
     "adverse events"),
    # before treatment, not a finding
    ("The groups did not differ at baseline in any of the outcome measures.",
     "itch severity"),
    # an aim
    ("We aimed to test whether montelukast and placebo differ in any of the outcome "
     "measures.", "itch severity"),
])
def test_no_row_from_a_null_that_is_not_on_every_outcome(text: str, outcome: str) -> None:
    assert direct_rows(text, outcome) == []


def test_a_harm_is_told_by_its_words() -> None:
    assert asks_harm(["risk", "of", "adverse", "effects"])
    assert asks_harm(["side", "effects"])
    assert not asks_harm(["itch", "severity"])


@pytest.mark.parametrize("text", [
    "Active treatments were statistically significantly superior to placebo for all "
    "efficacy measures.",
    "All active treatments were superior to placebo.",
    "Montelukast was significantly more effective than placebo (P < 0.001).",
])
@pytest.mark.parametrize(("outcome", "sign"), [("itch relief", 1), ("itch severity", -1)])
def test_a_win_on_every_measure_is_more_of_a_good_and_less_of_a_harm(
        text: str, outcome: str, sign: int) -> None:
    rows = direct_rows(text, outcome)
    assert [polarity for polarity, _ in rows] == [sign]


def test_the_comparator_winning_turns_it_round() -> None:
    text = "Montelukast was inferior to placebo in terms of overall efficacy."
    assert [polarity for polarity, _ in direct_rows(text, "itch relief")] == [-1]


@pytest.mark.parametrize(("text", "outcome"), [
    # another measure after the comparator: that one went the treatment's way
    ("Montelukast was superior to placebo in reducing nocturnal awakenings.",
     "itch severity"),
    # a third arm beaten, not the comparator
    ("All active treatments were superior to ibuprofen.", "itch relief"),
    # the treatment is not the subject
    ("Nasal saline was better than placebo.", "itch relief"),
    # an outcome with no good side: which way a win goes is not known
    ("Montelukast was superior to placebo for all efficacy measures.", "serum IgE"),
    # a harm
    ("Montelukast was superior to placebo for all efficacy measures.", "adverse events"),
    # hedged, or with a statistic that is not significant
    ("Montelukast may be superior to placebo.", "itch relief"),
    ("Montelukast was better than placebo (P = 0.21).", "itch relief"),
])
def test_no_row_from_a_win_that_is_not_on_every_measure(text: str, outcome: str) -> None:
    assert direct_rows(text, outcome) == []

"""Reading rules of session 31 (issue 14): a null in the next clause whose change word is
its verb ('but did not change B') is B's, a 'with no increase in B' after a change is
B's, 'failed to reduce' is a null and no aim, 'both' before a list of outcomes names no
arms, an opening 'Among ...,' says who was studied, an arm's share with its own interval
is no comparison, counts spelled out past ten are counts, an arm named with its regimen
('single-dose oral') is found by what is given, a verbless 'but in only 1.0%' holds
the other arm's value, a 'defined as' phrase and a clause of another subject after ',
and the' say nothing of the outcome, an arm that opens its clause has the share after
its count, 'not better than C in reducing' is a null, and a comparator's word that
modifies the intervention's name is the intervention's. Each case is a hand-written
abstract whose right reading is stated in its comment."""

from __future__ import annotations

import pytest
from test_extract_numbers_and_times import RANDOMISED, polarities

from pipeline.extraction.extractor import RuleExtractor


@pytest.fixture(scope="module")
def reader() -> RuleExtractor:
    return RuleExtractor()


@pytest.mark.parametrize("finding", [
    # 'change' after 'did not' is the verb of the next clause's null, about readmissions,
    # not a subject referring back to walking distance: walking distance rose (+1)
    "CONCLUSIONS: Drug A improved walking distance, but did not change readmission rates.",
    # a null opened by 'with no' after the changed outcome is said of what follows it (+1)
    "CONCLUSIONS: Drug A significantly increased walking distance, with no increase in "
    "adverse events.",
    # 'both' opens a list of outcomes, not of arms: no change within each arm (+1)
    "CONCLUSIONS: Drug A led to significant improvements in both walking distance and "
    "mood.",
])
def test_a_change_beside_a_null_or_a_list_of_outcomes(reader: RuleExtractor,
                                                      finding: str) -> None:
    assert polarities(reader, RANDOMISED + finding, "walking distance") == [1]


def test_failed_to_reduce_is_a_null(reader: RuleExtractor) -> None:
    # 'to reduce' after 'failed' is a result that did not come, not an aim (0)
    text = RANDOMISED + "CONCLUSIONS: Drug A failed to reduce depressive symptoms."
    assert polarities(reader, text, "depressive symptoms") == [0]


def test_an_opening_among_says_who_was_studied(reader: RuleExtractor) -> None:
    # 'standard rehabilitation' in the opening 'Among ...,' is the population's history,
    # not the comparator as the subject: drug A improved physical function (+1)
    text = RANDOMISED + (
        "CONCLUSIONS: Among patients who had completed standard rehabilitation after hip "
        "fracture, drug A resulted in improvement in physical function at 6 months.")
    assert polarities(reader, text, "physical function",
                      comparator="standard rehabilitation") == [1]


def test_an_arm_s_share_with_its_own_interval_is_no_comparison(
        reader: RuleExtractor) -> None:
    # each arm's share has its own interval after a ';' (the second touching 0); the
    # p-value says significant and 50.5% against 0% is more (+1)
    text = RANDOMISED + (
        "Hair preservation was found in 48 of 95 women (50.5%; 95% CI, 40.7%-60.4%) with "
        "drug A compared with 0 of 47 women in the drug B group (0%; 95% CI, 0%-7.6%) "
        "(P<.001).")
    assert polarities(reader, text, "hair preservation") == [1]


@pytest.mark.parametrize(("finding", "expected"), [
    # 31 of 47 (not 1 of 47) against 7 of 25: more responded with drug A (+1)
    ("Thirty-one of 47 patients (64%) given drug A met response criteria, compared with "
     "seven of 25 (28%) given drug B (odds ratio 2.18, 95% CI 1.21 to 4.14).", 1),
    # 23 of 47 (49%; not 3 of 47) against 4 of 25 (16%): more responded with drug A (+1)
    ("Twenty three of 47 patients given drug A met response criteria, compared with "
     "Four of 25 given drug B (P=0.01).", 1),
    # 13 of 47 (28%) against 17 of 25 (68%): fewer responded with drug A (-1)
    ("Thirteen of 47 patients given drug A met response criteria, compared with "
     "seventeen of 25 given drug B (P=0.01).", -1),
])
def test_counts_spelled_out_past_ten(reader: RuleExtractor, finding: str,
                                     expected: int) -> None:
    assert polarities(reader, RANDOMISED + finding, "response") == [expected]


def test_an_arm_named_with_its_regimen(reader: RuleExtractor) -> None:
    # the results name the drugs alone: 58% with fosfomycin against 70% with
    # nitrofurantoin is less resolution with the intervention (-1)
    text = ("Women were randomly assigned to single-dose oral fosfomycin or 5-day oral "
            "nitrofurantoin. Clinical resolution through day 28 was achieved in 171 of 244 "
            "patients (70%) receiving nitrofurantoin versus 139 of 241 (58%) receiving "
            "fosfomycin (P=.004).")
    assert polarities(reader, text, "clinical resolution", "single-dose oral fosfomycin",
                      "5-day oral nitrofurantoin") == [-1]


def test_a_verbless_but_holds_the_other_arm_s_value(reader: RuleExtractor) -> None:
    # 'but in only 1.0% of those in the drug A group' is drug A's value: fewer line
    # complications with drug A (-1)
    text = RANDOMISED + (
        "Line complications occurred in 9.4% of participants in the drug B group but in "
        "only 1.0% of those in the drug A group (P<0.001).")
    assert polarities(reader, text, "line complications") == [-1]


@pytest.mark.parametrize("finding", [
    # the 'reduction' is what defines a response, not what happened to it: 12 of 20
    # responded with drug A against 4 of 20 (+1)
    "Response, defined as at least 50% reduction in HAM-D score, was observed in 12 of 20 "
    "patients in the drug A group and 4 of 20 in the drug B group (P = 0.02).",
    # 'shorter' is said of the time to relapse, a clause of its own after ', and the';
    # the arm that opens the clause has its share after its count: 60% against 20%
    # responded (+1)
    "In the drug A group 12 patients (60%) had a response, compared with 4 patients (20%) "
    "in the drug B group (P < 0.01), and the time to relapse was shorter (3.4 vs 9.8 "
    "weeks).",
])
def test_words_that_say_nothing_of_the_outcome(reader: RuleExtractor,
                                              finding: str) -> None:
    assert polarities(reader, RANDOMISED + finding, "response") == [1]


@pytest.mark.parametrize("finding", [
    # judged no better than the comparator at reducing it: a null (0), not a reduction
    "CONCLUSIONS: Drug A improved physical function but was not better than drug B in "
    "reducing depressive symptoms.",
    # judged ineffective at preventing it (0)
    "CONCLUSIONS: Drug A is ineffective in preventing depressive symptoms.",
])
def test_judged_no_better_at_it_is_a_null(reader: RuleExtractor, finding: str) -> None:
    assert polarities(reader, RANDOMISED + finding, "depressive symptoms") == [0]


def test_a_comparator_word_modifying_the_intervention(reader: RuleExtractor) -> None:
    # 'Topical' is the intervention's own modifier, not the comparator ('no topical
    # treatment') as the subject: the oil reduces infections (-1)
    text = ("Infants were randomly assigned to sunflower seed oil or no topical treatment. "
            "CONCLUSION: Topical sunflower seed oil is a cheap and simple intervention that "
            "reduces nosocomial infections in preterm infants.")
    assert polarities(reader, text, "nosocomial infection", "sunflower seed oil",
                      "no topical treatment") == [-1]

"""Findings whose words do not name the question's: arms left unnamed ('18.1% vs 27.3%'),
one arm named and the other left to elimination, arms told apart only by their doses ('on
42 mg/day and 21 mg/day', 'given two doses and one dose'), and an outcome reported through
the scale that measures it ('HAM-D scores'). Each expectation is the reading a clinician
gives the sentence."""

from __future__ import annotations

import pytest

from pipeline.extraction.arms import introduced_first
from pipeline.extraction.extractor import RuleExtractor
from pipeline.extraction.locate import distinguishing_forms
from pipeline.extraction.mentions import Mention
from pipeline.extraction.scales import scales_of
from pipeline.extraction.values import unnamed_arms_direction
from pipeline.model import Abstract, Entity, Query


def direct_polarities(text: str, outcome: str, intervention: str,
                      comparator: str) -> list[int]:
    query = Query(Entity.from_name(intervention), Entity.from_name(outcome),
                  Entity.from_name(comparator))
    rows = RuleExtractor().extract(Abstract("7", "", text, 2020), query)
    return [int(r.polarity) for r in rows
            if (r.head.id, r.tail.id) == (query.intervention.id, query.outcome.id)]


# unnamed arms --------------------------------------------------------------------------

@pytest.mark.parametrize(("words", "order", "expected"), [
    # the first value is the intervention's when it was introduced first: 18.1 < 27.3
    ("occurred in 18.1 % vs 27.3 % ( p=0.01 )", 1, -1),
    ("occurred in 18.1 % vs 27.3 % ( p=0.01 )", -1, 1),
    # counts over their wholes compare as rates: 18/306 < 34/306
    ("occurred in 18 of 306 ( 5.9 % ) vs 34 of 306 ( 11.1 % ) patients", 1, -1),
    # sizes differ: 30/60 = 0.5 > 40/100 = 0.4, though 30 < 40
    ("was seen in 30 of 60 versus 40 of 100", 1, 1),
    ("rates were 92.1 % ( 152/165 ) and 81.3 % ( 135/166 ) , respectively", 1, 1),
    # the numbers that label the groups are not their values; a mean ± SD written as
    # one token is its mean
    ("in groups 1 and 2 was 9.5±4.8 days and 14.7±9.8 days , respectively", 1, -1),
    ("in groups 1 and 2 was 12 and 8 , respectively", -1, -1),
    # no order known, two comparisons in one clause, or equal values: no reading
    ("occurred in 18.1 % vs 27.3 %", 0, None),
    ("was 19 % vs 28 % at 3 months and 9 % vs 11 % at one year", 1, None),
    ("was 12 % vs 12 %", 1, None),
    # three values listed are three arms' (or not the arms' at all)
    ("rates were 50 % , 21 % and 11 % , respectively", 1, None),
])
def test_unnamed_arms_values_in_the_order_introduced(words: str, order: int,
                                                     expected: int | None) -> None:
    tokens = words.split()
    assert unnamed_arms_direction(tokens, 0, len(tokens), order) == expected


def test_the_arm_named_first_is_the_one_introduced_first() -> None:
    i, c = Mention(5, 6, 1.0), Mention(9, 10, 1.0)
    assert introduced_first({0: [i]}, {0: [c]}) == 1
    assert introduced_first({0: [c]}, {0: [i]}) == -1
    # the first sentence naming both decides, not an earlier one naming one arm
    assert introduced_first({0: [c], 20: [Mention(22, 23, 1.0)]},
                            {20: [Mention(21, 22, 1.0)]}) == -1
    assert introduced_first({0: [i]}, {20: [c]}) == 0


COLCHICINE = ("Adults undergoing cardiac surgery were randomised to {first} or {second}. "
              "Postoperative atrial fibrillation occurred in 18.1% vs 27.3% ({p}).")


@pytest.mark.parametrize(("first", "second", "p", "polarity"), [
    ("colchicine", "placebo", "p=0.01", -1),
    ("placebo", "colchicine", "p=0.01", 1),  # the comparator's value comes first
    ("colchicine", "placebo", "p=0.45", 0),
])
def test_a_result_naming_no_arm_reads_in_the_design_order(first: str, second: str, p: str,
                                                         polarity: int) -> None:
    text = COLCHICINE.format(first=first, second=second, p=p)
    assert direct_polarities(text, "postoperative atrial fibrillation", "colchicine",
                             "placebo") == [polarity]


# scales --------------------------------------------------------------------------------

def test_a_construct_is_measured_by_its_scales() -> None:
    assert {"HAM-D", "MADRS", "PHQ-9"} <= set(scales_of("severity of depressive symptoms"))
    assert "SF-36" in scales_of("health-related quality of life")
    assert "6MWD" in scales_of("exercise capacity")
    # a scale that runs against its construct is not one of them
    assert "ADAS-Cog" not in scales_of("cognitive function")
    assert scales_of("all-cause mortality") == []
    assert {"CAPS", "PCL-5"} <= set(scales_of("post-traumatic stress symptom severity"))
    assert "ARAT" in scales_of("upper limb function")
    # the construct's end is not its amount: a fall in CAPS is no loss of the diagnosis
    assert scales_of("proportion no longer meeting criteria for post-traumatic stress "
                     "disorder") == []
    assert scales_of("remission of depression") == []
    assert {"VO2peak", "peak oxygen uptake"} <= set(scales_of("exercise capacity"))
    assert "Roland-Morris" in scales_of("disability") and "CRQ" in scales_of("quality of life")
    assert scales_of("disability-free survival") == []
    assert "KOOS4" in scales_of("knee function")


@pytest.mark.parametrize(("result", "outcome", "polarity"), [
    # a difference whose interval spans 0: no difference in depression
    ("HAM-D scores fell by 6.2 points in the aerobic group and 5.4 points in the stretching "
     "group (MD -0.8; 95% CI -2.3 to 0.7).", "severity of depression", 0),
    ("SF-12 physical and mental component scores did not differ significantly between "
     "groups (p = 0.34).", "health-related quality of life", 0),
    ("The six-minute walk distance (6MWD) increased by 46 m more with aerobic exercise than "
     "with stretching (95% CI 22 to 70 m).", "exercise capacity", 1),
    # CAPS is the PTSD symptoms' severity: a difference spanning 0 is no difference
    ("CAPS scores fell by 21.4 points with aerobic exercise and 19.8 points with "
     "stretching (mean difference -1.6, 95% CI -6.0 to 2.8; P=0.47).",
     "post-traumatic stress symptom severity", 0),
    # the Action Research Arm Test is upper limb function: more of it (+1)
    ("ARAT scores improved by 12.1 points with aerobic exercise and 7.0 points with "
     "stretching (adjusted difference 5.1, 95% CI 2.0 to 8.2; P=0.001).",
     "upper limb function", 1),
])
def test_a_finding_on_the_scale_is_one_on_the_construct(result: str, outcome: str,
                                                       polarity: int) -> None:
    text = ("Older adults were randomised to supervised aerobic exercise or stretching "
            "exercises for 12 weeks. " + result)
    assert direct_polarities(text, outcome, "aerobic exercise",
                             "stretching exercises") == [polarity]


def test_the_construct_named_beside_its_scale_is_read_as_written() -> None:
    # the sentence names the symptoms; the scale in parentheses is their measure
    text = ("Adults with depression were randomised to behavioural activation or usual "
            "care. At 4 months, depressive symptoms improved more in the behavioural "
            "activation arm (PHQ-9 adjusted mean difference -2.9, 95% CI -4.3 to -1.5).")
    assert direct_polarities(text, "depression severity", "behavioural activation",
                             "usual care") == [-1]


# pairs at time points --------------------------------------------------------------------

HERNIA = ("Men with an inguinal hernia were randomised to laparoscopic repair or open repair. "
          "Groin pain was reported by 19% vs 28% of patients at 3 months (p=0.03) and by "
          "9% vs 11% at one year (p=0.50).")


@pytest.mark.parametrize(("outcome", "polarity"), [
    ("groin pain at one year", 0),  # the pair before 'one year', with its p = 0.50
    ("groin pain at 3 months", -1),  # 19% against 28%, p = 0.03
    ("groin pain at 12 months", 0),  # the same time in other units
])
def test_the_pair_of_values_at_the_time_asked(outcome: str, polarity: int) -> None:
    assert direct_polarities(HERNIA, outcome, "laparoscopic repair",
                             "open repair") == [polarity]


# one arm named, the other by elimination ---------------------------------------------------

MALARIA = ("Children were randomised to seasonal chemoprevention or to no "
           "chemoprevention. Clinical malaria was recorded in {first} children receiving "
           "chemoprevention and {second} control children (p<0.001).")


@pytest.mark.parametrize(("first", "second", "polarity"), [
    # 84/412 = 0.20 against 163/405 = 0.40: the named control arm has the larger share
    ("84 of 412 (20.4%)", "163 of 405 (40.2%)", -1),
    ("163 of 405 (40.2%)", "84 of 412 (20.4%)", 1),
    # counts compare as shares: 90/150 = 0.60 against 100/400 = 0.25
    ("90 of 150 (60.0%)", "100 of 400 (25.0%)", 1),
])
def test_the_other_value_is_the_arm_not_named(first: str, second: str, polarity: int) -> None:
    assert chemoprevention_polarities(MALARIA.format(first=first, second=second)) == [polarity]


def test_a_time_is_not_the_other_arms_value() -> None:
    # one value and a time point: 52 (weeks) is no second arm's value to compare with
    text = ("Children were randomised to seasonal chemoprevention or to no "
            "chemoprevention. Clinical malaria over 52 weeks was 40.2% in control children "
            "(p<0.001).")
    assert chemoprevention_polarities(text) != [1]


def chemoprevention_polarities(text: str) -> list[int]:
    return direct_polarities(text, "clinical malaria", "seasonal chemoprevention",
                             "no chemoprevention")


# arms told apart by their doses ----------------------------------------------------------

HIGH_DOSE, STANDARD_DOSE = ("high-dose nicotine patches (42 mg/day)",
                            "standard-dose nicotine patches (21 mg/day)")
BY_DOSE = ("Smokers were randomised to nicotine patches at 42 mg/day or 21 mg/day. Nausea was "
           "reported by 30.6% of participants on 42 mg/day and 16.3% on 21 mg/day "
           "(p<0.001).")
BY_COUNT = ("Women were randomised to one or two doses of misoprostol. Complete evacuation "
            "occurred in 101 of 120 women given two doses and 80 of 120 given one dose "
            "(p=0.002).")


@pytest.mark.parametrize(("intervention", "comparator", "expected"), [
    # 30.6% on the high dose > 16.3% on the standard one
    (HIGH_DOSE, STANDARD_DOSE, [1]),
    (STANDARD_DOSE, HIGH_DOSE, [-1]),
])
def test_arms_named_by_their_doses(intervention: str, comparator: str,
                                   expected: list[int]) -> None:
    assert direct_polarities(BY_DOSE, "nausea", intervention, comparator) == expected


@pytest.mark.parametrize(("intervention", "comparator", "expected"), [
    # 101/120 after two doses > 80/120 after one
    ("two doses of misoprostol", "a single dose of misoprostol", [1]),
    ("a single dose of misoprostol", "two doses of misoprostol", [-1]),
])
def test_arms_named_by_how_many_doses(intervention: str, comparator: str,
                                      expected: list[int]) -> None:
    assert direct_polarities(BY_COUNT, "complete evacuation", intervention,
                             comparator) == expected


def test_a_dose_sets_an_arm_apart_only_from_another_dose() -> None:
    assert distinguishing_forms(HIGH_DOSE, STANDARD_DOSE) == ["42 mg"]
    assert distinguishing_forms("a single dose of misoprostol", "two doses of misoprostol") == [
        "one dose", "1 dose", "single dose"]
    # the other arm has no dose, or the same one: the dose tells nothing apart
    assert distinguishing_forms(HIGH_DOSE, "placebo patches") == []
    assert distinguishing_forms("nicotine patches 21 mg", "nicotine gum 21 mg") == []


def test_an_arm_named_by_what_the_other_lacks() -> None:
    with_it, without_it = ("chemotherapy with added carboplatin",
                           "chemotherapy without carboplatin")
    assert distinguishing_forms(with_it, without_it) == [
        "with carboplatin", "plus carboplatin", "with added carboplatin"]
    assert distinguishing_forms(without_it, with_it) == [
        "without carboplatin", "no carboplatin", "omission of carboplatin",
        "omitting carboplatin"]
    # 57.0% with carboplatin > 41.1% without it (the other value, by elimination)
    text = ("Women were randomised to chemotherapy with or without carboplatin. pCR was "
            "achieved in 90 of 158 patients (57.0%) with carboplatin and 65 of 158 (41.1%) "
            "without (p=0.005).")
    assert direct_polarities(text, "pathological complete response", with_it,
                             without_it) == [1]

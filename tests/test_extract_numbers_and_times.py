"""Reading rules of session 30 (issue 14): an arm's size is not its value, a ratio
labelled comparator first runs the other way, a stay is a time, an outcome asked at a
time point is read at it (and a null said of another time is not its finding), a
control of another kind is a third arm, and a good named as such ('more without fever')
is not turned round. Each case is a hand-written abstract whose right
reading is stated in its comment."""

from __future__ import annotations

import pytest

from pipeline.extraction.extractor import RuleExtractor
from pipeline.model import Abstract, Entity, Query

RANDOMISED = "Patients were randomly assigned to drug A or drug B. "


@pytest.fixture(scope="module")
def extractor() -> RuleExtractor:
    return RuleExtractor()


def polarities(extractor: RuleExtractor, text: str, outcome: str,
               intervention: str = "drug A", comparator: str = "drug B") -> list[int]:
    query = Query(Entity.from_name(intervention), Entity.from_name(outcome),
                  Entity.from_name(comparator))
    rows = extractor.extract(Abstract("12345", "", text, 2020), query)
    return [int(r.polarity) for r in rows
            if (r.head.id, r.tail.id) == (query.intervention.id, query.outcome.id)]


@pytest.mark.parametrize("finding", [
    # 'Among 7860 patients in the A group' is the arm's size, not its value (7860 against
    # 1196 of 7780 read as more): the odds ratio says less (-1)
    "Among 7860 patients in the drug A group, 1123 (14.3%) had a major adverse kidney "
    "event, compared with 1196 of 7780 patients (15.4%) in the drug B group (odds ratio "
    "0.91, 95% CI 0.83 to 0.99; P = 0.04).",
    # a whole with its thousands set apart by a space: 218 of 15 432 (1.4%) against 292
    # of 15 408 (1.9%) is less (-1), not 432 against 408
    "A major adverse kidney event occurred in 218 of 15 432 participants (1.4%) in the "
    "drug A group and 292 of 15 408 participants (1.9%) in the drug B group (P = 0.01).",
])
def test_an_arm_s_size_is_not_its_value(extractor: RuleExtractor, finding: str) -> None:
    assert polarities(extractor, RANDOMISED + finding, "major adverse kidney events") == [-1]


@pytest.mark.parametrize(("finding", "expected"), [
    # the hazard ratio is drug B's against drug A's, as its label says: more relapse with
    # drug B is less with drug A (-1)
    ("Patients receiving drug B were more likely to relapse (hazard ratio for drug B vs "
     "drug A 1.94, 95% CI 1.36 to 2.77; P < 0.001).", -1),
    # an estimate alone, labelled the same way (-1)
    ("The hazard ratio of relapse for drug B versus drug A was 1.94 (95% CI 1.36 to "
     "2.77).", -1),
    # labelled intervention first, the ratio runs as written (+1)
    ("The hazard ratio of relapse for drug A versus drug B was 1.94 (95% CI 1.36 to "
     "2.77).", 1),
])
def test_a_ratio_labelled_comparator_first_runs_the_other_way(
        extractor: RuleExtractor, finding: str, expected: int) -> None:
    assert polarities(extractor, RANDOMISED + finding, "relapse") == [expected]


def test_an_earlier_discharge_is_a_shorter_stay(extractor: RuleExtractor) -> None:
    # discharged a day earlier: the hospital stay was shorter (-1)
    text = RANDOMISED + ("Patients were discharged a day earlier after drug A (median "
                         "hospital stay 8 vs 9 days; P = 0.036).")
    assert polarities(extractor, text, "length of hospital stay") == [-1]


def test_an_outcome_asked_at_a_time_point_is_read_at_it(extractor: RuleExtractor) -> None:
    # better at 12 weeks, no different at 12 months: asked at 12 months, a null (0), not
    # the weeks' finding, whose sentence names the arm where the months' does not
    text = (
        "Constraint-induced movement therapy (CIMT) improves arm function after stroke. "
        "Patients after stroke were randomised to modified CIMT or to an equal dose of "
        "conventional upper limb therapy. The primary outcome was the Action Research Arm "
        "Test (ARAT) at 12 weeks. At 12 weeks, mean ARAT improvement was 17.8 points with "
        "CIMT versus 12.9 points with conventional therapy (difference 4.9, 95% CI 1.4 to "
        "8.4; P = 0.007). At 12 months, ARAT scores were 45.1 and 42.9, respectively "
        "(adjusted difference 2.2, 95% CI -1.9 to 6.3; P = 0.29).")
    arms = ("constraint-induced movement therapy", "conventional rehabilitation")
    assert polarities(extractor, text, "upper limb function at 12 months", *arms) == [0]
    # asked at 12 weeks, the weeks' finding (+1)
    assert polarities(extractor, text, "upper limb function at 12 weeks", *arms) == [1]


def test_the_estimate_as_a_noun_is_no_aim(extractor: RuleExtractor) -> None:
    # 'the estimate leaned towards harm' says what the estimate did, not what the study
    # set out to estimate: the null before it is read (0)
    text = RANDOMISED + (
        "The difference in death or reinfarction between drug A and drug B was not "
        "statistically significant, although the estimate leaned towards harm with drug A.")
    assert polarities(extractor, text, "death or reinfarction") == [0]


def test_a_calcineurin_inhibitor_is_found_by_its_members(extractor: RuleExtractor) -> None:
    # 52.4% of the tacrolimus arm against 13.8% of the corticosteroid arm: more (+1)
    text = ("Adults with eczema were randomised to tacrolimus ointment or a corticosteroid "
            "regimen. Skin burning at the application site was reported by 52.4% of "
            "tacrolimus-treated and 13.8% of corticosteroid-treated patients (P < 0.001).")
    assert polarities(extractor, text, "application-site burning",
                      "topical calcineurin inhibitors", "topical corticosteroids") == [1]


def test_a_control_of_another_kind_is_a_third_arm(extractor: RuleExtractor) -> None:
    # a three-arm trial asked as acupuncture against sham: 'than usual care' compares
    # with the third arm, so the sham comparison's null stands (0)
    text = ("Adults with low back pain were randomised to acupuncture, sham acupuncture or "
            "usual care. At 8 weeks, mean pain intensity was 3.8 in the acupuncture group "
            "and 3.9 in the sham group (mean difference -0.1, 95% CI -0.6 to 0.4; P = 0.67). "
            "Both needling groups had greater improvement in pain than usual care "
            "(P < 0.001).")
    assert polarities(extractor, text, "pain", "acupuncture", "sham acupuncture") == [0]
    # asked against usual care, the same sentence is the finding (less pain, -1)
    assert polarities(extractor, text, "pain", "acupuncture", "usual care") == [-1]


def test_a_null_at_another_time_is_not_the_finding_s(extractor: RuleExtractor) -> None:
    # greater gains at 1 year; the null is said of 2 years: asked at 1 year, more (+1)
    text = RANDOMISED + (
        "Drug A produced greater visual acuity gains at 1 year than drug B, although the "
        "difference narrowed and was not statistically significant by 2 years.")
    assert polarities(extractor, text, "visual acuity at 1 year") == [1]
    # 'but the difference was not significant' with no time of its own is still a null
    text = RANDOMISED + ("Drug A produced greater visual acuity gains at 1 year than drug "
                         "B, but the difference was not statistically significant.")
    assert polarities(extractor, text, "visual acuity at 1 year") == [0]


def test_a_good_named_as_such_is_not_turned_round(extractor: RuleExtractor) -> None:
    # 'more without fever' is more of the time without fever (+1), not more fever
    text = ("Children were randomised to drug A or drug B. Children given drug A spent 49 "
            "minutes more without fever in the first 4 hours than those given drug B (95% "
            "CI 27 to 71 minutes; P < 0.001).")
    assert polarities(extractor, text, "time without fever") == [1]
    # a sentence on the fever itself still reads the other way: less fever is more time
    # without it (+1)
    text = ("Children were randomised to drug A or drug B. Fever was less frequent with "
            "drug A than with drug B (12% vs 30%; P < 0.001).")
    assert polarities(extractor, text, "time without fever") == [1]


@pytest.mark.parametrize(("text", "outcome", "expected"), [
    # a stroke review's good functional outcome is the trial's favourable outcome: more
    # with drug A (+1)
    (RANDOMISED + "A favourable outcome at 90 days was achieved by 129 of 243 patients "
     "(53.1%) in the drug A group and 101 of 240 (42.1%) in the drug B group (adjusted "
     "odds ratio 1.58, 95% CI 1.07 to 2.33; P = 0.02).", "good functional outcome", 1),
    # the QLQ-C30's global health status is its quality of life scale: no difference (0)
    (RANDOMISED + "Mean global health status scores at 6 months were 76.1 with drug A and "
     "74.3 with drug B (difference 1.8, 95% CI -3.6 to 7.2; P = 0.51).",
     "quality of life", 0),
])
def test_an_outcome_under_the_trial_s_name_for_it(extractor: RuleExtractor, text: str,
                                                   outcome: str, expected: int) -> None:
    assert polarities(extractor, text, outcome) == [expected]

"""An outcome's complement: a question on survival answered from a trial that reports only
its deaths (and the other way round), turned the other way; never over a reading of the
outcome itself, and not for a part, a composite or a time."""

from __future__ import annotations

import pytest

from pipeline.extraction.extractor import RuleExtractor
from pipeline.extraction.opposites import opposite_outcome
from pipeline.model import Abstract, Entity, Query


@pytest.mark.parametrize(("outcome", "complement"), [
    ("overall survival", "overall mortality"),
    ("all-cause mortality", "all-cause survival"),
    ("Mortality at 90 days", "survival at 90 days"),
    ("likelihood of survival to hospital discharge",
     "likelihood of mortality to hospital discharge"),
    ("risk of death at 28 days", "risk of survival at 28 days"),
    ("survival at one year", "mortality at one year"),
    ("treatment failure", "treatment cure"),
    ("mycological treatment failure", "mycological treatment cure"),
    ("clinical cure", "clinical failure"),
    ("urinary incontinence", "urinary continence"),
    # a graft's survival is the complement of its failure or loss, not of deaths
    ("graft survival", "graft failure"),
    ("graft loss", "graft survival"),
])
def test_a_plain_outcome_has_its_complement(outcome: str, complement: str) -> None:
    opposite = opposite_outcome(Entity.from_name(outcome))
    assert opposite is not None and opposite.name == complement


@pytest.mark.parametrize("outcome", [
    "cardiovascular mortality",  # a cause: its complement is not survival
    "risk of treatment-related mortality",
    "treatment retention",  # dropouts are mostly the study's, not the treatment's
    "death or disability",  # a composite
    "deaths, hospitalisations",
    "progression-free survival",  # its complement is progression or death
    "survival time",  # a time
    "median survival",
    "pain",  # no complement word
    "heart failure",  # an organ's failure, not a treatment's
    "graft survival or death",  # a composite
    "time to cure",  # a time
    "cure or improvement",  # a composite
])
def test_no_complement_for_a_part_a_composite_or_a_time(outcome: str) -> None:
    assert opposite_outcome(Entity.from_name(outcome)) is None


def direct_polarities(text: str, outcome: str, intervention: str = "drug x",
                      comparator: str = "placebo") -> list[int]:
    query = Query(Entity.from_name(intervention), Entity.from_name(outcome),
                  Entity.from_name(comparator))
    rows = RuleExtractor().extract(Abstract("7", "", text, 2020), query)
    return [int(r.polarity) for r in rows
            if (r.head.id, r.tail.id) == (query.intervention.id, query.outcome.id)]


RANDOMISED = "Patients were randomised to drug X or placebo. "


@pytest.mark.parametrize(("finding", "outcome", "polarity"), [
    # fewer deaths: more survival
    ("Mortality at one year was significantly lower in the drug X group than in the "
     "placebo group (12% vs 25%, p = 0.01).", "overall survival", 1),
    # longer survival: less mortality
    ("Overall survival was significantly longer in the drug X group than in the placebo "
     "group (p = 0.01).", "all-cause mortality", -1),
    # no difference either way
    ("There was no significant difference in mortality between the drug X and placebo "
     "groups (p = 0.62).", "overall survival", 0),
    ("Fewer patients died in the drug X group than in the placebo group (8% vs 15%, "
     "p = 0.02).", "survival at 90 days", 1),
])
def test_the_complement_answers_turned_round(finding: str, outcome: str,
                                             polarity: int) -> None:
    assert direct_polarities(RANDOMISED + finding, outcome) == [polarity]


@pytest.mark.parametrize(("text", "intervention", "comparator", "outcome", "polarity"), [
    # more cures: fewer treatment failures (-1)
    ("Patients were randomly allocated to terbinafine cream or clotrimazole cream. "
     "Mycological cure at week 6 was achieved in 92% of terbinafine-treated patients and "
     "78% of clotrimazole-treated patients (p = 0.003).", "terbinafine", "clotrimazole",
     "mycological treatment failure", -1),
    # fewer incontinent: more continent (+1)
    ("Women were randomised to pelvic floor muscle training or usual care. At 12 months, "
     "urinary incontinence was less common with pelvic floor muscle training than with "
     "usual care (20% vs 34%, p = 0.004).", "pelvic floor muscle training", "usual care",
     "urinary continence at 12 months", 1),
])
def test_more_complements_answer_turned_round(text: str, intervention: str, comparator: str,
                                              outcome: str, polarity: int) -> None:
    # 'mycological' alone names the failure in part: the cure, named in full, is read
    assert direct_polarities(text, outcome, intervention, comparator) == [polarity]


def test_the_outcome_itself_is_read_before_its_complement() -> None:
    text = (RANDOMISED + "Mortality was significantly lower with drug X than with placebo "
            "(p = 0.01). Overall survival did not differ between the groups (p = 0.40).")
    assert direct_polarities(text, "overall survival") == [0]


def test_a_cause_of_death_is_not_answered_from_survival() -> None:
    text = (RANDOMISED + "Overall survival was significantly longer in the drug X group "
            "than in the placebo group (p = 0.01).")
    assert direct_polarities(text, "cardiovascular mortality") == []


@pytest.mark.parametrize(("text", "intervention", "comparator", "outcome", "polarity"), [
    # 'Complete cure' names the outcome; the complement ('complete failure rate') only
    # by its stray 'complete'
    ("Patients were randomised to terbinafine or itraconazole. Complete cure was achieved "
     "in 46.3% (111/240) with terbinafine and 34.2% (82/240) with itraconazole "
     "(p = 0.007).", "terbinafine", "itraconazole", "complete cure rate", 1),
    # 'first-attempt success' names it; 'first-attempt' alone is all of its failure
    ("Adults were randomised to direct laryngoscopy or video laryngoscopy. First-attempt "
     "success was achieved in 71.0% with direct laryngoscopy and 85.0% with video "
     "laryngoscopy (p < 0.001).", "direct laryngoscopy", "video laryngoscopy",
     "first-attempt intubation success rate", -1),
])
def test_a_complement_named_less_than_the_outcome_is_not_read(
        text: str, intervention: str, comparator: str, outcome: str, polarity: int) -> None:
    assert direct_polarities(text, outcome, intervention, comparator) == [polarity]


def test_a_time_to_the_complement_moves_with_the_outcome() -> None:
    # a longer time to death (18.2 > 14.9 months) is longer survival, not shorter
    text = ("Median time to death from any cause was 18.2 months with drug x and 14.9 months "
            "with placebo (HR 0.78; 95% CI 0.64-0.95; p=0.01).")
    assert direct_polarities(text, "overall survival") == [1]

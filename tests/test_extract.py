"""The offline rule extractor: polarity relative to head -> tail, comparisons, nulls,
negation, hedging, statistics, mediators, and the shape of the evidence rows."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.extraction.extractor import RuleExtractor, default_extractor
from pipeline.extraction.nlp import ModelUnavailable, build_nlp
from pipeline.extraction.settings import ExtractorSettings
from pipeline.extraction.stats import Significance, find_statistics
from pipeline.extraction.text import clean_text
from pipeline.model import Abstract, Entity, Evidence, Polarity, Query

ZINC = Entity.from_name("zinc")
COLD = Entity.from_name("common cold duration")
PLACEBO = Entity.from_name("placebo")
QUERY = Query(ZINC, COLD, PLACEBO)


@pytest.fixture(scope="module")
def extractor() -> RuleExtractor:
    return RuleExtractor()


def core(extractor: RuleExtractor, text: str, query: Query = QUERY,
         title: str = "") -> list[Evidence]:
    rows = extractor.extract(Abstract("12345", title, text, 2020), query)
    return [r for r in rows if (r.head.id, r.tail.id) == (query.intervention.id,
                                                          query.outcome.id)]


@pytest.mark.parametrize(("text", "polarity"), [
    ("Zinc significantly reduced the duration of the common cold compared with placebo "
     "(P = 0.01).", -1),
    ("Zinc increased common cold duration (hazard ratio 1.8, 95% CI 1.2 to 2.6).", 1),
    # the comparator is the subject: lower with placebo means higher with zinc
    ("The duration of the common cold was lower in the placebo group than in the zinc "
     "group (P < 0.001).", 1),
    ("Compared with zinc, placebo shortened common cold duration (P = 0.003).", 1),
    ("Common cold duration did not differ between zinc and placebo (P = 0.41).", 0),
    ("There was no significant difference in the duration of the common cold between "
     "the groups.", 0),
    ("Zinc did not shorten the duration of the common cold.", 0),
    ("Although common cold duration was numerically shorter with zinc, the difference was "
     "not statistically significant (P = 0.20).", 0),
    ("Zinc shortened common cold duration (mean difference -1.2 days; 95% CI -2.9 to "
     "0.4; p = .15).", 0),
    ("Common cold duration decreased significantly in both groups (P < 0.001).", 0),
    ("The duration of the common cold was 5 days with zinc and 7 days with placebo "
     "(P = 0.002).", -1),
    # a concession's null is not the main clause's finding, and the other way round
    ("Although no difference in rash was found between the groups, zinc shortened common "
     "cold duration.", -1),
    ("Although common cold duration was shorter with zinc, the difference was not "
     "significant.", 0),
    # a likeness of periods that a significant estimate contradicts: the estimate counts
    # (a rate ratio: a hazard ratio of a duration is of its end, read the other way below)
    ("Common cold duration was similar in winter and summer (rate ratio 0.70, 95% CI "
     "0.55 to 0.88).", -1),
    # a hazard ratio of a time's event: 0.70 for the cold's end is a longer duration (+1)
    ("Common cold duration was similar in winter and summer (hazard ratio 0.70, 95% CI "
     "0.55 to 0.88).", 1),
    # a likeness with a non-significant estimate stays a null
    ("Common cold duration was similar with zinc and placebo (hazard ratio 0.90, 95% CI "
     "0.70 to 1.15).", 0),
])
def test_polarity_of_a_finding(extractor: RuleExtractor, text: str, polarity: int) -> None:
    rows = core(extractor, text)
    assert [int(r.polarity) for r in rows] == [polarity]


def test_aims_definitions_and_background_are_not_findings(extractor: RuleExtractor) -> None:
    assert core(extractor, "We aimed to determine whether zinc reduces the duration of the "
                           "common cold.") == []
    assert core(extractor, "The primary outcome was common cold duration.") == []
    assert core(extractor, "BACKGROUND: Zinc is known to reduce common cold duration. "
                           "METHODS: We randomised 200 adults.") == []


# A structured abstract whose labels were stripped, as MedEvidence gives its sources:
# background, methods, results and conclusions as paragraphs.
PRIOR = "Previous studies have shown that zinc reduces common cold duration."
METHODS = "We randomised 200 adults to zinc or placebo lozenges."
NULL_RESULT = "Common cold duration did not differ between zinc and placebo (P = 0.40)."
CONCLUSION = "Zinc lozenges did not help."


def read_sentences(extractor: RuleExtractor, text: str) -> list[str]:
    """The sentences of `text` the extractor may read a finding from."""
    parsed = extractor.parser.parse(Abstract("1", "", text, 2020))
    assert parsed is not None
    return [parsed.sentence_text(start) for start in parsed.starts if parsed.readable(start)]


def test_paragraphs_before_the_first_result_are_not_read(extractor: RuleExtractor) -> None:
    structured = "\n".join([PRIOR, METHODS, NULL_RESULT, CONCLUSION])
    assert read_sentences(extractor, structured) == [NULL_RESULT, CONCLUSION]
    assert [(int(r.polarity), r.sentence) for r in core(extractor, structured)] == [
        (0, NULL_RESULT)]
    # the same words as one paragraph: nothing tells the background apart
    assert read_sentences(extractor, " ".join([PRIOR, METHODS, NULL_RESULT])) == [
        PRIOR, METHODS, NULL_RESULT]


@pytest.mark.parametrize("paragraphs", [
    [PRIOR, NULL_RESULT],  # two paragraphs: no sign of a structure
    [PRIOR, METHODS, "Zinc lozenges were well liked."],  # no paragraph states a result
])
def test_the_preamble_needs_three_paragraphs_and_a_result(extractor: RuleExtractor,
                                                          paragraphs: list[str]) -> None:
    assert read_sentences(extractor, "\n".join(paragraphs)) == paragraphs


def test_an_abstract_with_labels_keeps_to_them(extractor: RuleExtractor) -> None:
    """Labels of its own decide ('CONTEXT:' is background), not the paragraphs."""
    text = "\n".join(["CONTEXT: " + PRIOR, "DESIGN: " + METHODS, "FINDINGS: Colds were "
                      "shorter.", "RESULTS: " + NULL_RESULT])
    assert read_sentences(extractor, text) == ["FINDINGS: Colds were shorter.",
                                               "RESULTS: " + NULL_RESULT]


@pytest.mark.parametrize("text", [
    # a question, even one naming a direction
    "Does zinc reduce common cold duration more than placebo?",
    "The coprimary end points were common cold duration and the rate of increased symptoms.",
    # prior knowledge, not this study's finding (no section label needed)
    "Zinc lozenges are known to shorten common cold duration.",
    "Longer common cold duration with placebo has been documented in several trials.",
])
def test_questions_end_points_and_prior_knowledge_are_not_findings(
        extractor: RuleExtractor, text: str) -> None:
    assert core(extractor, text) == []
    # the same abstract with a finding after it still gives that finding
    finding = "Zinc significantly reduced common cold duration compared with placebo (P = 0.01)."
    assert [int(r.polarity) for r in core(extractor, f"{text} {finding}")] == [-1]


def test_hedged_claims_carry_less_confidence(extractor: RuleExtractor) -> None:
    firm = core(extractor, "Zinc significantly shortened common cold duration (P = 0.01).")
    hedged = core(extractor, "Zinc may shorten common cold duration.")
    assert [int(r.polarity) for r in firm + hedged] == [-1, -1]
    assert hedged[0].confidence < firm[0].confidence


def test_better_means_less_of_an_adverse_outcome(extractor: RuleExtractor) -> None:
    query = Query(ZINC, Entity.from_name("cold symptoms"), PLACEBO)
    rows = core(extractor, "Zinc significantly improved cold symptoms compared with placebo "
                           "(P = 0.02).", query)
    assert [int(r.polarity) for r in rows] == [-1]


def test_abbreviations_are_resolved_before_matching(extractor: RuleExtractor) -> None:
    query = Query(ZINC, Entity.from_name("upper respiratory tract infection"), PLACEBO)
    text = ("We studied upper respiratory tract infections (URTI) in children. Zinc reduced "
            "the incidence of URTI compared with placebo (P = 0.01).")
    rows = core(extractor, text, query)
    assert [int(r.polarity) for r in rows] == [-1]
    assert "URTI" in rows[0].sentence


def test_markup_and_emoji_do_not_hide_a_finding(extractor: RuleExtractor) -> None:
    rows = core(extractor, "<p>Zinc <b>reduced</b> common cold duration &amp; 🤧 symptoms "
                           "(P&nbsp;=&nbsp;0.01).</p>")
    assert [int(r.polarity) for r in rows] == [-1]


def test_one_finding_per_pair_per_abstract(extractor: RuleExtractor) -> None:
    text = ("RESULTS: Zinc significantly reduced common cold duration (P = 0.001). "
            "CONCLUSIONS: Zinc shortens common cold duration.")
    rows = core(extractor, text)
    assert len(rows) == 1 and rows[0].polarity == Polarity.DECREASES


def test_rows_are_valid_evidence_with_the_callers_ids(extractor: RuleExtractor) -> None:
    grounded = Query(Entity("D015032", "zinc", grounded=True),
                     Entity("D003139", "common cold", grounded=True), PLACEBO)
    rows = extractor.extract(Abstract("777", "Zinc for colds", "Zinc shortened the common "
                             "cold compared with placebo (P = 0.01).", 2019), grounded)
    assert len(rows) == 1
    row = rows[0]
    assert (row.head, row.tail) == (grounded.intervention, grounded.outcome)
    assert 0.0 <= row.confidence < 1.0
    assert (row.pmid, row.year, row.extractor) == ("777", 2019, extractor.name)
    assert "shortened" in row.sentence


def test_given_mediators_give_both_hops(extractor: RuleExtractor) -> None:
    virus = Entity.from_name("rhinovirus replication")
    text = ("Zinc inhibited rhinovirus replication compared with placebo (P < 0.01). "
            "Higher rhinovirus replication was associated with longer common cold duration "
            "(P = 0.02).")
    rows = extractor.extract(Abstract("5", "", text), QUERY, [virus])
    edges = {(r.head.id, r.tail.id): int(r.polarity) for r in rows}
    assert edges[(ZINC.id, virus.id)] == -1
    assert edges[(virus.id, COLD.id)] == 1


def test_mediators_are_discovered_when_none_are_given(extractor: RuleExtractor) -> None:
    text = ("Zinc shortened common cold duration (P = 0.01). Zinc also reduced "
            "interleukin-6 levels (P = 0.003). Zinc is thought to act through inhibition "
            "of rhinovirus replication.")
    abstract = Abstract("6", "", text)
    rows = extractor.extract(abstract, QUERY)
    discovered = {r.tail.name: r for r in rows if r.tail.id != COLD.id}
    assert {name: int(r.polarity) for name, r in discovered.items()} == {
        "interleukin-6 levels": -1, "rhinovirus replication": -1}
    hedged, firm = discovered["rhinovirus replication"], discovered["interleukin-6 levels"]
    assert hedged.confidence < firm.confidence


def test_the_extractor_reads_with_the_settings_it_is_given() -> None:
    # the tuning values are the constructor's, not module constants: a sentence longer
    # than max_read_tokens is not read, and discovered mediators are trusted by their factor
    text = ("Zinc shortened common cold duration (P = 0.01). Zinc also reduced "
            "interleukin-6 levels (P = 0.003).")
    abstract = Abstract("7", "", text)
    assert RuleExtractor().settings == ExtractorSettings()
    assert RuleExtractor(settings=ExtractorSettings(max_read_tokens=5)).extract(
        abstract, QUERY) == []

    def mediator_confidence(factor: float) -> float:
        extractor = RuleExtractor(settings=ExtractorSettings(discovered_factor=factor))
        rows = extractor.extract(abstract, QUERY)
        return next(r.confidence for r in rows if r.tail.id != COLD.id)

    assert mediator_confidence(0.45) == pytest.approx(mediator_confidence(0.9) / 2, abs=2e-3)
    with pytest.raises(AttributeError):
        ExtractorSettings().fuzzy_threshold = 0.5  # type: ignore[misc]


@pytest.mark.parametrize("text", [
    "", "   ", "...", "12345 67890", "<html><body></body></html>",
    "zinc " * 20_000,  # no sentence boundary at all
    "\udcff\udcfe broken surrogates zinc common cold duration",
])
def test_bad_input_gives_no_rows_and_no_error(extractor: RuleExtractor, text: str) -> None:
    assert core(extractor, text) == []


PIECES = st.sampled_from([
    "zinc", "Zinc", "common cold duration", "placebo", "reduced", "increased", "not",
    "no significant difference", "than", "(P = 0.01)", "(P = 0.4)", "95% CI 0.5 to 0.9",
    ".", ",", ";", "(", ")", "<b>", "</p>", "&amp;", "🤧", "\u200b", "\x00", "\udcff",
    "in the placebo group", "both groups", "BACKGROUND:", "RESULTS:", "\n", " ", "-"])


@settings(max_examples=150, deadline=None)
@given(st.lists(PIECES | st.text(max_size=12), max_size=60).map(" ".join))
def test_any_text_gives_valid_rows_and_never_raises(extractor: RuleExtractor,
                                                     text: str) -> None:
    for row in extractor.extract(Abstract("42", text[:40], text), QUERY):
        assert row.pmid == "42" and 0.0 <= row.confidence < 1.0
        assert row.head.id != row.tail.id
        assert row.head == ZINC or row.tail == COLD


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=3000))
def test_garbage_bytes_give_no_rows(extractor: RuleExtractor, raw: bytes) -> None:
    text = clean_text(raw)
    assert "\x00" not in text
    rows = core(extractor, text)
    # a row needs a sentence of the text that names the outcome (a fuzzy match needs one
    # of its content words); the intervention may be implicit
    assert not rows or any(word in text.lower() for word in ("cold", "duration"))


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Lu", "Ll", "Lt", "Lm", "Lo")),
               max_size=2000))
def test_text_without_letters_gives_no_rows(extractor: RuleExtractor, text: str) -> None:
    assert extractor.extract(Abstract("1", "", text), QUERY) == []


def test_a_megabyte_abstract_is_read_up_to_the_limit(extractor: RuleExtractor) -> None:
    text = ("Zinc reduced common cold duration (P = 0.01). " + "Filler words here. " * 60_000)
    assert len(text) > 1_000_000
    rows = core(extractor, text)
    assert [int(r.polarity) for r in rows] == [-1]


def test_a_bad_pmid_gives_no_rows(extractor: RuleExtractor) -> None:
    rows = extractor.extract(Abstract("not a pmid!", "", "Zinc reduced common cold duration "
                                      "(P = 0.01)."), QUERY)
    assert rows == []


def test_default_extractor_uses_the_shipped_confidence_model() -> None:
    extractor = default_extractor()
    assert extractor.extract(Abstract("1", "", ""), QUERY) == []
    assert isinstance(extractor, RuleExtractor) and extractor.calibration is not None


def test_a_missing_spacy_model_is_a_clear_error() -> None:
    with pytest.raises(ModelUnavailable, match="not installed"):
        build_nlp("en_core_sci_does_not_exist")


@pytest.mark.parametrize(("text", "expected"), [
    ("(odds ratio [OR] 0.37; 95% CI 0.20-0.67; P=0.001)",
     [(Significance.SIGNIFICANT, -1), (Significance.SIGNIFICANT, 0)]),
    ("(MD = -6 g; 95% CI: -41 to 28; p = .71)",
     [(Significance.NOT_SIGNIFICANT, 0), (Significance.NOT_SIGNIFICANT, 0)]),
    ("(hazard ratio 2.72, 95% CI 1.77 to 4.17)", [(Significance.SIGNIFICANT, 1)]),
    ("(P = NS)", [(Significance.NOT_SIGNIFICANT, 0)]),
    ("p>0.05", [(Significance.NOT_SIGNIFICANT, 0)]),
    ("P = 3 x 10-5", [(Significance.SIGNIFICANT, 0)]),
    ("a p of 1.5 units", []),
    # a percentage is never a ratio: its interval is read against 0, not 1
    ("(9.6% [CI 0.9 to 18.3%])", [(Significance.SIGNIFICANT, 0)]),
    ("(24% (95% CI: 0 to 42%))", [(Significance.NOT_SIGNIFICANT, 0)]),
    ("(0.9 [CI 0.6 to 1.3])", [(Significance.NOT_SIGNIFICANT, 0)]),
    # an unnamed interval straddling 1 may be a difference: with a p-value, the p speaks
    ("0.99 (95% CI 0.11-1.87) higher (P = 0.028)", [(Significance.SIGNIFICANT, 0)]),
    ("(OR 1.4, 95% CI 0.8-2.3; P = 0.03)",  # a named ratio's interval still counts
     [(Significance.NOT_SIGNIFICANT, 0), (Significance.SIGNIFICANT, 0)]),
    # bounds written in percent: the interval is still read
    ("[difference 0.87%, 95% confidence interval (CI) -1.6% to 3.3%]",
     [(Significance.NOT_SIGNIFICANT, 0)]),
    # an efficacy is 1 - the risk ratio: above 0, the outcome is less likely (-1)
    ("vaccine efficacy against cholera was 65% (95% CI 52-74)", [(Significance.SIGNIFICANT, -1)]),
    ("demonstrating VE of 61% (95% confidence interval 28%-79%)",
     [(Significance.SIGNIFICANT, -1)]),
    ("the vaccine's effectiveness was -40% (95% CI -90 to -5)", [(Significance.SIGNIFICANT, 1)]),
    ("Vaccine efficacy was 38% (95% CI: -2%,62%)", [(Significance.NOT_SIGNIFICANT, 0)]),
    # a risk reduction likewise ('relative risk reduction' is not a 'relative risk')
    ("an absolute risk reduction of 2.9 percentage points (95% CI 0.8 to 5.0)",
     [(Significance.SIGNIFICANT, -1)]),
    ("relative risk reduction 35% (95% CI 20% to 48%)", [(Significance.SIGNIFICANT, -1)]),
    ("RRR 12% (95% CI -5 to 26)", [(Significance.NOT_SIGNIFICANT, 0)]),
    # not every efficacy: a response rate's interval is not a risk reduction
    ("the efficacy rate was 65% (95% CI 52-74)", [(Significance.SIGNIFICANT, 0)]),
    # 'or' and 'hr' in lower case are a conjunction and an hour, not an odds ratio and a
    # hazard ratio: the interval is unnamed (significant, no direction)
    ("relapse or death: 0.52 (95% CI 0.31 to 0.88)", [(Significance.SIGNIFICANT, 0)]),
    ("at 24 hr 0.52 (95% CI 0.31 to 0.88)", [(Significance.SIGNIFICANT, 0)]),
    ("relapse, OR 0.52 (95% CI 0.31 to 0.88)", [(Significance.SIGNIFICANT, -1)]),
    # each arm's share with its own interval compares nothing
    ("87.6% (95% CI 84.6 to 90.1) in the A group and 88.9% (95% CI 86.0 to 91.3) in the B "
     "group", []),
])
def test_statistics(text: str, expected: list[tuple[Significance, int]]) -> None:
    assert [(s.significance, s.direction) for s in find_statistics(text)] == expected


def test_death_and_mortality_name_one_outcome(extractor: RuleExtractor) -> None:
    query = Query(ZINC, Entity.from_name("risk of death at 90 days"), PLACEBO)
    text = "The 90-day mortality was significantly lower with zinc than with placebo (P = 0.01)."
    assert [int(r.polarity) for r in core(extractor, text, query)] == [-1]


@pytest.mark.parametrize(("sentence", "polarity"), [
    ("Vaccine efficacy against cholera was 65% (95% CI 52-74).", -1),
    ("The vaccine's effectiveness against cholera was 59% (95% CI 51-67).", -1),
    ("Vaccine efficacy against cholera was 38% (95% CI -2% to 62%).", 0),
    ("Protective efficacy against cholera was 38% (95% CI -2% to 62%).", 0),
])
def test_a_vaccine_efficacy_reads_as_less_of_the_disease(extractor: RuleExtractor,
                                                          sentence: str, polarity: int) -> None:
    query = Query(Entity.from_name("oral cholera vaccine"), Entity.from_name("risk of cholera"),
                  PLACEBO)
    text = "Participants were randomised to oral cholera vaccine or placebo. " + sentence
    assert [int(r.polarity) for r in core(extractor, text, query)] == [polarity]

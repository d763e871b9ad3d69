"""The fallback classifier: its plain-Python inference against scikit-learn's, the shipped
weights on unambiguous sentences, and when the extractor uses it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pipeline.extraction.extractor import RuleExtractor
from pipeline.extraction.fallback import CLASSES, FallbackClassifier, fit, load_default_classifier
from pipeline.model import Abstract, Entity, Query

TOY = [("pain was significantly lower with the drug", -1),
       ("mortality was significantly reduced by treatment", -1),
       ("the drug reduced pain scores significantly", -1),
       ("no significant difference between groups in pain", 0),
       ("outcomes did not differ between the groups", 0),
       ("no difference in mortality between groups", 0),
       ("response was significantly higher with the drug", 1),
       ("treatment significantly increased the response", 1),
       ("the drug increased response rates significantly", 1)]


def test_inference_matches_scikit_learn(tmp_path: Path) -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    from pipeline.extraction.fallback import terms

    texts = [t for t, _ in TOY] * 2
    labels = [y for _, y in TOY] * 2
    model = fit(texts, labels, [str(i % 9) for i in range(len(texts))], c_values=(10.0,),
                folds=3, min_df=1)
    path = tmp_path / "m.json"
    model.save(path)
    loaded = FallbackClassifier.load(path)
    vectorizer = TfidfVectorizer(min_df=1, sublinear_tf=True, analyzer=terms)
    reference = LogisticRegression(C=10.0, max_iter=5000).fit(
        vectorizer.fit_transform(texts), labels)
    probe = ["pain was lower and response higher", "no difference in pain at all"]
    expected = reference.predict_proba(vectorizer.transform(probe))
    order = [list(reference.classes_).index(k) for k in CLASSES]
    for text, row in zip(probe, expected, strict=True):
        got = loaded.probabilities(text)
        assert all(math.isclose(got[k], row[order[k]], abs_tol=2e-3) for k in range(3))


@pytest.fixture(scope="module")
def classifier() -> FallbackClassifier:
    """The shipped classifier: package data, so a missing one is a defect, not a skip."""
    loaded = load_default_classifier()
    assert loaded is not None, "the shipped fallback classifier is missing"
    return loaded


@pytest.mark.parametrize(("text", "polarity"), [
    ("There was no significant difference between the groups in pain scores (P = 0.42).", 0),
    ("Pain scores were significantly lower in the treatment group than in the placebo "
     "group (P < 0.001).", -1),
    ("The treatment significantly increased the response rate compared with placebo "
     "(P < 0.01).", 1),
])
def test_the_shipped_classifier_reads_plain_findings(classifier: FallbackClassifier,
                                                     text: str, polarity: int) -> None:
    assert classifier.classify(text)[0] == polarity


def test_the_fallback_reads_only_where_the_rules_read_nothing(
        classifier: FallbackClassifier) -> None:
    query = Query(Entity.from_name("iron"), Entity.from_name("ferritin"),
                  Entity.from_name("placebo"))
    # no direction cue: the rules give no row, the classifier gives a low-confidence one
    unread = Abstract("1", "", "Ferritin levels differed between the iron and placebo "
                               "groups at delivery (p = 0.04).")
    plain, with_fallback = RuleExtractor(), RuleExtractor(fallback=classifier)
    assert plain.extract(unread, query) == []
    rows = with_fallback.extract(unread, query)
    assert len(rows) == 1 and rows[0].confidence <= 0.5
    # a sentence the rules read is not re-read by the classifier
    read = Abstract("2", "", "Iron significantly increased ferritin compared with placebo "
                             "(p = 0.01).")
    assert with_fallback.extract(read, query) == plain.extract(read, query)


@pytest.mark.parametrize(("intervention", "outcome", "text"), [
    # a review's summary reports no result to read
    ("dexamethasone", "fever duration",
     "This review summarises the proposed mechanisms of dexamethasone and the clinical "
     "outcomes reported so far, such as fever duration."),
    # 'more than a decade' measures time, it compares no arms: no result to read
    ("prone positioning", "duration of mechanical ventilation",
     "Prone positioning has been studied in critically ill adults receiving mechanical "
     "ventilation for more than a decade."),
    # 'most of' counts, 'double-blind' is the design: no direction word says a result
    ("metronidazole", "oral health impacts",
     "Most of the clinical data were associated with oral health impacts."),
    ("montelukast", "atopic dermatitis severity",
     "In a double-blind trial, 59 patients with atopic dermatitis were treated with "
     "montelukast."),
])
def test_the_fallback_does_not_read_a_sentence_that_reports_no_result(
        classifier: FallbackClassifier, intervention: str, outcome: str, text: str) -> None:
    query = Query(Entity.from_name(intervention), Entity.from_name(outcome), None)
    assert RuleExtractor(fallback=classifier).extract(Abstract("3", "", text), query) == []


def test_a_loosely_matched_outcome_the_rules_can_read_keeps_the_rules_reading(
        classifier: FallbackClassifier) -> None:
    query = Query(Entity.from_name("house screening"),
                  Entity.from_name("indoor adult mosquito density"),
                  Entity.from_name("no screening"))
    # 'mosquitoes inside houses' matches the outcome only loosely, so the rules give no
    # row of their own; the picked sentence says 'substantially reduced' (-1), which the
    # classifier reads as no difference
    text = "House screening substantially reduced the number of mosquitoes inside houses."
    assert classifier.classify(text)[0] == 0

    def pair_rows(extractor: RuleExtractor) -> list[tuple[int, float]]:
        return [(int(r.polarity), r.confidence)
                for r in extractor.extract(Abstract("5", "", text), query)
                if (r.head.id, r.tail.id) == (query.intervention.id, query.outcome.id)]

    assert pair_rows(RuleExtractor()) == []
    rows = pair_rows(RuleExtractor(fallback=classifier))
    assert [polarity for polarity, _ in rows] == [-1]
    assert rows[0][1] <= 0.5  # trusted less than a rule reading of a named outcome


def test_a_significant_sentence_is_read_as_a_direction() -> None:
    # hand-set weights: 'differ' leans to no difference, 'lower' to a decrease; a sentence
    # that says the arms differed significantly takes the likelier of the two directions
    model = FallbackClassifier({"differ": (1.0, (0.0, 2.0, 0.0)),
                                "lower": (1.0, (1.0, 0.0, 0.0))}, (0.0, 0.0, 0.0))
    text = "scores were lower and differ"
    probabilities = model.probabilities(text)
    assert model.classify(text) == (0, probabilities[1])
    assert model.classify(text, directed=True) == (-1, probabilities[0])


def test_the_extractor_directs_the_fallback_only_for_a_significant_sentence(
        classifier: FallbackClassifier) -> None:
    query = Query(Entity.from_name("laryngoscope"),
                  Entity.from_name("successful first-time intubations"), None)
    # no cue the rules read; the sentence says the difference was significant, so the
    # classifier's 'no difference' is not an answer (which way is its best guess)
    significant = Abstract("6", "", "The laryngoscope made a significant difference to the "
                                    "rate of successful first-time intubations.")
    assert classifier.classify(significant.text)[0] == 0
    rows = RuleExtractor(fallback=classifier).extract(significant, query)
    assert [int(r.polarity) != 0 for r in rows] == [True]
    # with a null the sentence is read as no difference
    null = Abstract("7", "", "The laryngoscope made no significant difference to the rate "
                             "of successful first-time intubations.")
    assert [int(r.polarity) for r in RuleExtractor(fallback=classifier).extract(
        null, query)] == [0]

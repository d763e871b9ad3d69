"""The body-of-evidence judgement: exact sums and shares, computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.inference.evidence_body import (
    EvidenceBody,
    Firmness,
    FirmnessRule,
    StudyFinding,
)

BODY = EvidenceBody.of([
    StudyFinding("2", 1, 0.6),
    StudyFinding("1", 0, 0.3),
    StudyFinding("2", -1, 0.2),  # the same study again, less confident: dropped
    StudyFinding("3", 1, 0.1),
], participants=240)


def test_one_finding_per_study_its_most_confident() -> None:
    assert BODY.findings == (StudyFinding("1", 0, 0.3), StudyFinding("2", 1, 0.6),
                             StudyFinding("3", 1, 0.1))
    assert BODY.studies == 3


def test_support_and_share_by_hand() -> None:
    assert BODY.support(1) == pytest.approx(0.7)
    assert BODY.support(-1) == 0.0
    assert BODY.share(1) == pytest.approx(0.7 / 1.0)
    assert BODY.share(0) == pytest.approx(0.3 / 1.0)
    assert EvidenceBody.of([]).share(1) == 0.0  # nothing to share


@pytest.mark.parametrize(("rule", "polarity", "firmness"), [
    (FirmnessRule(), 1, Firmness.DEFINITE),
    (FirmnessRule(), -1, Firmness.DEFINITE),  # no thresholds: any answer stands
    (FirmnessRule(min_studies=4), 1, Firmness.INSUFFICIENT),
    (FirmnessRule(min_studies=3), 1, Firmness.DEFINITE),
    (FirmnessRule(min_share=0.71), 1, Firmness.UNCERTAIN),  # 0.7 < 0.71
    (FirmnessRule(min_share=0.69), 1, Firmness.DEFINITE),
    (FirmnessRule(min_share=0.5), 0, Firmness.UNCERTAIN),  # the null has 0.3 of 1.0
    (FirmnessRule(min_support=0.71), 1, Firmness.UNCERTAIN),
    (FirmnessRule(min_support=0.69), 1, Firmness.DEFINITE),
    # 240 participants: too few for a null, enough for a direction found
    (FirmnessRule(min_participants=241), 0, Firmness.UNCERTAIN),
    (FirmnessRule(min_participants=240), 0, Firmness.DEFINITE),
    (FirmnessRule(min_participants=241), 1, Firmness.DEFINITE),
    (FirmnessRule(min_participants=10**6), -1, Firmness.DEFINITE),
])
def test_judgement_thresholds(rule: FirmnessRule, polarity: int, firmness: Firmness) -> None:
    assert rule.judge(BODY, polarity) is firmness


def test_an_unstated_size_is_not_a_small_study() -> None:
    unsized = EvidenceBody.of(BODY.findings)
    assert unsized.participants is None
    assert FirmnessRule(min_participants=10**6).judge(unsized, 0) is Firmness.DEFINITE


def test_reporting_share_by_hand() -> None:
    read_five = EvidenceBody.of(BODY.findings, studies_read=5)  # 3 of 5 studies report
    assert read_five.reporting_share == pytest.approx(0.6)
    assert FirmnessRule(min_reporting=0.61).judge(read_five, 1) is Firmness.INSUFFICIENT
    assert FirmnessRule(min_reporting=0.6).judge(read_five, 1) is Firmness.DEFINITE
    assert BODY.reporting_share is None  # how many were read is unknown: not applied
    assert FirmnessRule(min_reporting=1.0).judge(BODY, 1) is Firmness.DEFINITE


@pytest.mark.parametrize(("randomised", "firmness"), [
    (False, Firmness.UNCERTAIN),  # only observational or non-randomised studies
    (True, Firmness.DEFINITE),
    (None, Firmness.DEFINITE),  # no study states its design: nothing to judge by
])
def test_a_body_without_a_randomised_study_is_uncertain(randomised: bool | None,
                                                        firmness: Firmness) -> None:
    body = EvidenceBody.of(BODY.findings, participants=240, randomised=randomised)
    assert FirmnessRule().judge(body, 1) is firmness
    assert FirmnessRule().judge(body, 0) is firmness  # a null alike


def test_insufficient_data_comes_before_the_design() -> None:
    body = EvidenceBody.of(BODY.findings, studies_read=10, randomised=False)
    assert FirmnessRule(min_reporting=0.5).judge(body, 1) is Firmness.INSUFFICIENT


@pytest.mark.parametrize(("controlled", "firmness"), [
    (False, Firmness.INSUFFICIENT),  # asked against placebo; every study was head to head
    (True, Firmness.DEFINITE),
    (None, Firmness.DEFINITE),  # not asked against a control, or search hits
])
def test_a_body_without_the_control_arm_asked_is_insufficient(controlled: bool | None,
                                                              firmness: Firmness) -> None:
    body = EvidenceBody.of(BODY.findings, participants=240, controlled=controlled)
    assert FirmnessRule().judge(body, 1) is firmness
    assert FirmnessRule().judge(body, 0) is firmness


def test_no_study_is_insufficient_whatever_the_rule() -> None:
    assert FirmnessRule(min_studies=0).judge(EvidenceBody.of([]), 0) is Firmness.INSUFFICIENT


@pytest.mark.parametrize(("thresholds", "message"), [
    ({"min_share": 0.6, "min_shares": 0.5}, "unknown firmness thresholds min_shares"),
    ({"min_share": "0.6"}, "not numbers: min_share"),
    ({"min_reporting": True}, "not numbers: min_reporting"),
])
def test_a_bad_firmness_file_is_one_error_naming_it(tmp_path: Path, thresholds: dict[str, object],
                                                   message: str) -> None:
    from pipeline.evaluation.medevidence import load_firmness

    path = tmp_path / "firmness.json"
    path.write_text(json.dumps({"firmness": thresholds}), encoding="utf-8")
    with pytest.raises(ValueError, match=message) as raised:
        load_firmness(path)
    assert str(path) in str(raised.value)

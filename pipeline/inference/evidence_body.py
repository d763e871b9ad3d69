"""The body of evidence behind a direct answer: is it definite, uncertain or insufficient?

A review does not answer from the direction alone: it says "uncertain effect" when the
studies disagree or their findings are weak, and "insufficient data" when too few studies
report the outcome at all. The posterior (posterior.py) says which direction the evidence
leans; this module says how firmly, from the studies' own findings on the direct
intervention -> outcome pair (one finding per study, its highest confidence).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Firmness(StrEnum):
    DEFINITE = "definite"
    UNCERTAIN = "uncertain effect"
    INSUFFICIENT = "insufficient data"


@dataclass(frozen=True, slots=True)
class StudyFinding:
    """One study's finding on the direct pair: polarity +1/0/-1, its confidence, and the
    sentence it was read from (provenance; not used by the judgement)."""

    pmid: str
    polarity: int
    confidence: float
    sentence: str = ""


@dataclass(frozen=True, slots=True)
class EvidenceBody:
    """The direct findings of distinct studies (one per PMID, its most confident), the
    participants of all the studies read that state how many they had (None when none
    does: an unstated size is no evidence of a small study), how many studies were read
    (None when the studies read are not a review's included studies: off-topic search
    hits say nothing about how often the outcome is reported), whether any study
    read was randomised (False when those that state their design are all observational
    or non-randomised, None when none states it), and, when the question compares with
    no active treatment (placebo, sham, usual care, 'no X'), whether any study read had
    such an arm (None otherwise, and for search hits as for `studies_read`)."""

    findings: tuple[StudyFinding, ...]
    participants: int | None = None
    studies_read: int | None = None
    randomised: bool | None = None
    controlled: bool | None = None

    @classmethod
    def of(cls, findings: Iterable[StudyFinding], participants: int | None = None,
           studies_read: int | None = None, randomised: bool | None = None,
           controlled: bool | None = None) -> EvidenceBody:
        best: dict[str, StudyFinding] = {}
        for finding in findings:
            kept = best.get(finding.pmid)
            if kept is None or finding.confidence > kept.confidence:
                best[finding.pmid] = finding
        return cls(tuple(best[pmid] for pmid in sorted(best)), participants, studies_read,
                   randomised, controlled)

    @property
    def studies(self) -> int:
        return len(self.findings)

    def support(self, polarity: int) -> float:
        """Summed confidence of the studies that found `polarity`."""
        return sum(f.confidence for f in self.findings if f.polarity == polarity)

    def share(self, polarity: int) -> float:
        """The part of all studies' summed confidence that found `polarity` (0 if none)."""
        total = sum(f.confidence for f in self.findings)
        return self.support(polarity) / total if total > 0 else 0.0

    @property
    def reporting_share(self) -> float | None:
        """The part of the studies read that gave a finding on the pair (None when the
        number read is unknown)."""
        return self.studies / self.studies_read if self.studies_read else None


@dataclass(frozen=True, slots=True)
class FirmnessRule:
    """Thresholds of the judgement (the evaluation tunes `min_participants` and
    `min_reporting` on MedEvidence's even question ids and leaves the rest at their
    defaults; docs/evaluation.md says why). Besides them, a body with no randomised study
    (every study read that states its design is observational or non-randomised) is
    always an uncertain effect: GRADE starts such evidence at low certainty, and any
    further concern makes it very low; and a body none of whose studies had the control
    arm the question asks about (the question compares with placebo, sham or no
    treatment, the studies only compare active treatments) is insufficient data: none of
    them measured the comparison asked (GRADE's indirectness). Both are rules, not
    thresholds, so nothing to tune.

    Args:
        min_studies: fewer studies with a direct finding than this is insufficient data.
        min_share: the answer's share of the summed confidence below this (the studies
            disagree) is an uncertain effect.
        min_support: the answer's summed confidence below this (weak, hedged or loosely
            matched findings only) is an uncertain effect.
        min_participants: fewer participants in all the studies read than this makes a
            null answer an uncertain effect: a small body of evidence that found no
            difference cannot rule one out (GRADE's imprecision: its optimal information
            size is a few hundred). A direction found in a small body still stands, as
            reviews report it ("may increase"). Not applied when no study states its
            size.
        min_reporting: a smaller part of the studies read than this giving a finding on
            the pair is insufficient data: a review's included studies mostly do not
            report the outcome. Not applied when the number read is unknown.
    """

    min_studies: int = 1
    min_share: float = 0.0
    min_support: float = 0.0
    min_participants: int = 0
    min_reporting: float = 0.0

    def judge(self, body: EvidenceBody, polarity: int) -> Firmness:
        """How firmly `body` supports the answer whose polarity is `polarity`."""
        reporting = body.reporting_share
        if body.studies < max(1, self.min_studies) or body.controlled is False or (
                reporting is not None and reporting < self.min_reporting):
            return Firmness.INSUFFICIENT
        small = (polarity == 0 and body.participants is not None
                 and body.participants < self.min_participants)
        if (body.share(polarity) < self.min_share or body.support(polarity) < self.min_support
                or small or body.randomised is False):
            return Firmness.UNCERTAIN
        return Firmness.DEFINITE


def firmness_rule_from_json(data: dict[str, object]) -> FirmnessRule:
    """A frozen rule; unknown keys and values that are not numbers are an error, not
    ignored or left to fail at the first judgement."""
    known = set(FirmnessRule.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown firmness thresholds {', '.join(unknown)}")
    not_numbers = sorted(k for k, v in data.items()
                         if isinstance(v, bool) or not isinstance(v, int | float))
    if not_numbers:
        raise ValueError(f"firmness thresholds that are not numbers: {', '.join(not_numbers)}")
    return FirmnessRule(**data)  # type: ignore[arg-type]

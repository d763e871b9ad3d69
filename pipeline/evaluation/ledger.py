"""The error ledger: every wrong MedEvidence answer filed under the one cause whose fix
alone would most likely make it right, with the sentence each study was read from.

Causes, tried in this order (issue 14's categories, decided from the recording alone):
- firmness: the label is right (or the review's answer is not a direction) but the
  body-of-evidence judgement (definite / uncertain / insufficient) is wrong;
- stopped early: the label at the stop is wrong but the label after every study is right;
- no finding: no study read gave a direct intervention -> outcome finding;
- reading: studies gave findings, but none found the review's direction or null;
- pooling: some study found the review's answer, yet the label at the stop is another;
- not understood: the question's wording could not be parsed, so it was never asked.
Questions the dataset flags `fulltext_required` are counted under their cause and again
in a column of their own: the abstracts may not hold what the review read.

The ceilings say how the gap splits between the two halves of the answer: how many
answers would be right if every study were read the review's way (the body of evidence
otherwise as read), and how many if every definite / uncertain / insufficient judgement
were right (the labels as read).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from pipeline.evaluation.medevidence import (
    DEFINITE,
    POLARITY_OF,
    FiveWay,
    StudyFacts,
    evidence_body,
    read_until,
)
from pipeline.inference.evidence_body import Firmness
from pipeline.trajectory import StepRecord

CAUSES = ("firmness", "stopped early", "no finding", "reading", "pooling", "not understood")


@dataclass(frozen=True)
class StudyLine:
    """What one study contributed: its direct finding, or None when it gave none."""

    pmid: str
    polarity: int | None
    confidence: float
    sentence: str


@dataclass(frozen=True)
class WrongAnswer:
    question_id: str
    gold: str
    answer: str
    label_at_stop: str
    cause: str
    fulltext_required: bool
    studies: tuple[StudyLine, ...]


def _studies(read: Sequence[StepRecord]) -> tuple[StudyLine, ...]:
    """Every study read, in reading order, with its most confident direct finding (the
    body of evidence's own choice of finding)."""
    found = {f.pmid: f for f in evidence_body(read, StudyFacts()).findings}
    pmids = dict.fromkeys(p for step in read for p in step.retrieved_pmids)
    return tuple(StudyLine(p, found[p].polarity, found[p].confidence, found[p].sentence)
                 if p in found else StudyLine(p, None, 0.0, "") for p in pmids)


def cause_of(gold: str, read: Sequence[StepRecord], run: Sequence[StepRecord],
             studies: Sequence[StudyLine]) -> str:
    """The cause of a wrong answer (see the module docstring for the order)."""
    if gold not in DEFINITE:
        return "firmness"
    wanted = DEFINITE[gold]
    if read[-1].label == wanted:
        return "firmness"
    if run[-1].label == wanted:
        return "stopped early"
    found = [s.polarity for s in studies if s.polarity is not None]
    if not found:
        return "no finding"
    if POLARITY_OF[wanted] not in found:
        return "reading"
    return "pooling"


def ledger(runs: Mapping[str, Sequence[StepRecord]], stops: Mapping[str, int],
           gold: Mapping[str, str], mapping: FiveWay, facts: StudyFacts,
           fulltext: Mapping[str, bool], unanswered: Sequence[str] = ()) -> list[WrongAnswer]:
    """The wrong answers of one policy (stop per question) under one 5-way mapping;
    `unanswered` questions were never asked."""
    wrong = [WrongAnswer(q, gold[q], "unanswered", "", "not understood",
                         fulltext.get(q, False), ()) for q in unanswered]
    for question in sorted(stops, key=int):
        run = runs[question]
        read = read_until(run, stops[question])
        answer = mapping.answer(read, facts)
        if answer == gold[question]:
            continue
        studies = _studies(read)
        wrong.append(WrongAnswer(question, gold[question], answer, read[-1].label,
                                 cause_of(gold[question], read, run, studies),
                                 fulltext.get(question, False), studies))
    return sorted(wrong, key=lambda w: int(w.question_id))


@dataclass(frozen=True)
class Ceilings:
    """Right answers now, with every study read the review's way (`reading`), and with
    every firmness judgement right (`firmness`), of `questions`."""

    questions: int
    right: int
    reading: int
    firmness: int


def ceilings(wrong: Sequence[WrongAnswer], runs: Mapping[str, Sequence[StepRecord]],
             stops: Mapping[str, int], mapping: FiveWay, facts: StudyFacts,
             questions: int) -> Ceilings:
    """The ceilings of the `questions` answers whose wrong ones the ledger filed as
    `wrong`; a question never asked stays wrong in all three. Read the review's way, every
    study that gave a finding found the review's direction or null, so the label is the
    review's and the mapping judges that body (participants and reporting as read); a
    review that was not definite gains nothing. With every judgement right, an answer is
    right when the review was not definite or the label is the review's."""
    right = questions - len(wrong)
    reading = firmness = right
    for w in wrong:
        if w.cause == "not understood":
            continue
        if w.gold not in DEFINITE:
            firmness += 1
            continue
        wanted = DEFINITE[w.gold]
        firmness += w.label_at_stop == wanted
        polarity = POLARITY_OF[wanted]
        body = evidence_body(read_until(runs[w.question_id], stops[w.question_id]), facts)
        as_review = replace(body, findings=tuple(replace(f, polarity=polarity)
                                                 for f in body.findings))
        reading += mapping.rule.judge(as_review, polarity) is Firmness.DEFINITE
    return Ceilings(questions, right, reading, firmness)


def ceilings_text(c: Ceilings) -> str:
    def share(n: int) -> str:
        return f"{n} ({100 * n / c.questions:.1f}%)" if c.questions else str(n)

    return (f"Right now: {share(c.right)} of {c.questions}. With every study read the "
            f"review's way (the body of evidence otherwise as read): {share(c.reading)}. "
            f"With every definite / uncertain / insufficient judgement right (the labels "
            f"as read): {share(c.firmness)}.\n")


def counts_markdown(wrong: Sequence[WrongAnswer], questions: int) -> str:
    """The ledger's counts: per cause, split by the review's answer being a direction or
    null (definite) or not, and how many the dataset flags as needing the full text."""
    definite = Counter(w.cause for w in wrong if w.gold in DEFINITE)
    other = Counter(w.cause for w in wrong if w.gold not in DEFINITE)
    flagged = Counter(w.cause for w in wrong if w.fulltext_required)
    lines = ["| cause | gold definite | gold uncertain / insufficient | flagged fulltext |",
             "|---|---:|---:|---:|"]
    for cause in CAUSES:
        lines.append(f"| {cause} | {definite[cause]} | {other[cause]} | {flagged[cause]} |")
    lines.append(f"| **all wrong** | {sum(definite.values())} | {sum(other.values())} | "
                 f"{sum(flagged.values())} |")
    return "\n".join(lines) + f"\n\n{len(wrong)} wrong of {questions} questions.\n"


def details_text(wrong: Sequence[WrongAnswer]) -> str:
    """Each wrong answer with what every study was read as, and from which sentence."""
    sign = {1: "+1", 0: " 0", -1: "-1"}
    lines = []
    for w in wrong:
        flag = " [fulltext]" if w.fulltext_required else ""
        lines.append(f"Q{w.question_id}: gold {w.gold!r}, answered {w.answer!r} "
                     f"(label {w.label_at_stop}); cause: {w.cause}{flag}")
        for s in w.studies:
            if s.polarity is None:
                lines.append(f"  {s.pmid}: no direct finding")
            else:
                lines.append(f"  {s.pmid}: {sign[s.polarity]} ({s.confidence:.2f}) "
                             f"{s.sentence}")
    return "\n".join(lines) + ("\n" if lines else "")

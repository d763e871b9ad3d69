"""An outcome's complement: 'mortality' for 'overall survival', 'cure' for 'treatment
failure', 'continence' for 'urinary incontinence'. A review asks about one; a trial's
abstract may report only the other, which moves the opposite way, so its reading, turned
round, answers the question.

Not for a composite ('death or disability') or a time ('survival time', 'time to cure'),
whose complements are not one word away. Survival and death have one only when the
outcome is plain: its other words say when, where or over what it was counted ('mortality
at 90 days', 'survival to hospital discharge'), not which deaths or whose survival
('treatment-related mortality', 'graft survival': the complement of a part is not the
whole's), nor a survival free of an event ('progression-free survival': its complement is
the event or death). A failure has one only when it is a treatment's ('treatment failure',
'mycological failure': cure), or a graft's or an implant's (survival), not an organ's
('heart failure'). Retention in treatment and dropouts are not complements here: a
trial's dropouts or attrition are mostly how many left the study, not the treatment, and
read as retention they answered a question on retention in care from a subgroup's
attrition (MedEvidence, even ids; docs/extraction.md, session 24).
"""

from __future__ import annotations

from pipeline.extraction.lexicon import COUNT_VALUES, TIME_OUTCOME_WORDS
from pipeline.model import Entity

_DEATH = ("mortality", "death", "deaths", "died", "dying")
_SURVIVAL = ("survival", "survived", "surviving")
_FAILURE = ("failure", "failures")
# Each word of an outcome that has a complement, and the word of the complement that takes
# its place in the name (the forms of each mentions.py's SAME_OUTCOME_WORDS joins).
OPPOSITE_OUTCOME_WORDS = {
    **dict.fromkeys(_SURVIVAL, "mortality"),
    **dict.fromkeys(_DEATH, "survival"),
    **dict.fromkeys(_FAILURE, "cure"),
    **dict.fromkeys(("cure", "cured", "success", "successful"), "failure"),
    "incontinence": "continence",
    "continence": "incontinence",
}
# Words that say when, where or over what an outcome was counted, and how it is measured
# (no cause or site: 'cardiac death', 'graft survival'): all a survival or death may have.
PLAIN_WORDS = frozenset({
    "rate", "rates", "risk", "incidence", "number", "proportion", "percentage",
    "likelihood", "occurrence", "overall", "total", "all", "cause", "in", "hospital",
    "discharge", "care", "treatment", "study", "trial", "programme", "program", "follow",
    "up", "term", "long", "short", "end", "at", "of", "to", "by", "until", "after", "within",
    "during", "the", "a", "an", "-", "patients", "participants", "hours", "hour", "days",
    "day", "weeks", "week", "months", "month", "years", "year"})
# Words before 'failure' that make it a treatment's.
TREATMENT_FAILURE_LEADS = frozenset({
    "treatment", "therapeutic", "therapy", "clinical", "mycological", "virological",
    "virologic", "bacteriological", "bacteriologic", "microbiological", "parasitological",
    "eradication"})
# Things whose survival is the complement of their failure or loss ('graft survival').
THINGS_THAT_SURVIVE = frozenset({
    "graft", "allograft", "transplant", "implant", "prosthesis", "restoration", "sealant",
    "flap"})
# Words that make an outcome a composite or a time.
NO_COMPLEMENT_WORDS = frozenset({"or", "and", "/", "median"}) | TIME_OUTCOME_WORDS


def opposite_outcome(outcome: Entity) -> Entity | None:
    """The outcome's complement, its name the outcome's with the one word replaced; None
    when it has none."""
    words = outcome.name.replace("-", " - ").replace("/", " / ").split()
    lowered = [w.lower() for w in words]
    opposite = [i for i, w in enumerate(lowered) if w in OPPOSITE_OUTCOME_WORDS
                or w == "loss" and i > 0 and lowered[i - 1] in THINGS_THAT_SURVIVE]
    if len(opposite) != 1 or not NO_COMPLEMENT_WORDS.isdisjoint(lowered):
        return None
    at = opposite[0]
    others = lowered[:at] + lowered[at + 1:]
    lead = lowered[at - 1] if at > 0 else ""
    if lead in THINGS_THAT_SURVIVE and lowered[at] in _SURVIVAL + _FAILURE + ("loss",):
        # a graft's or an implant's survival is the complement of its failure or loss
        words[at] = "failure" if lowered[at] in _SURVIVAL else "survival"
        return _named(words)
    if lowered[at] in _SURVIVAL + _DEATH and not all(
            w in PLAIN_WORDS or w.isdigit() or w in COUNT_VALUES for w in others):
        return None
    if lowered[at] in _FAILURE and lead not in TREATMENT_FAILURE_LEADS:
        return None
    words[at] = OPPOSITE_OUTCOME_WORDS[lowered[at]]
    return _named(words)


def _named(words: list[str]) -> Entity:
    return Entity.from_name(" ".join(words).replace(" - ", "-").replace(" / ", "/"), "outcome")

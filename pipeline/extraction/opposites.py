"""An outcome's complement: 'mortality' for 'overall survival', 'survival' for 'all-cause
mortality'. A review asks about one; a trial's abstract may report only the other, which
moves the opposite way, so its reading, turned round, answers the question.

Only a plain outcome has one: its other words say when, where or over what it was
counted ('mortality at 90 days', 'survival to hospital discharge'), not which deaths or
whose survival ('treatment-related mortality', 'graft survival': the complement of a part
is not the whole's), nor that it is a composite ('death or disability'), a survival free
of an event ('progression-free survival': its complement is the event or death) or a time
('survival time'). Retention in treatment and dropouts are not complements here: a trial's
dropouts or attrition are mostly how many left the study, not the treatment, and read as
retention they answered a question on retention in care from a subgroup's attrition
(MedEvidence, even ids; docs/extraction.md, session 24).
"""

from __future__ import annotations

from pipeline.model import Entity

# Each word of an outcome that has a complement, and the word of the complement that takes
# its place in the name (the forms of each mentions.py's SAME_OUTCOME_WORDS joins).
OPPOSITE_OUTCOME_WORDS = {
    **dict.fromkeys(("survival", "survived", "surviving"), "mortality"),
    **dict.fromkeys(("mortality", "death", "deaths", "died", "dying"), "survival"),
}
# Words that say when, where or over what an outcome was counted, and how it is measured
# (no cause or site: 'cardiac death', 'graft survival').
PLAIN_WORDS = frozenset({
    "rate", "rates", "risk", "incidence", "number", "proportion", "percentage",
    "likelihood", "occurrence", "overall", "total", "all", "cause", "in", "hospital",
    "discharge", "care", "treatment", "study", "trial", "programme", "program", "follow",
    "up", "term", "long", "short", "end", "at", "of", "to", "by", "until", "after", "within",
    "during", "the", "a", "an", "-", "patients", "participants", "hours", "hour", "days",
    "day", "weeks", "week", "months", "month", "years", "year"})


def opposite_outcome(outcome: Entity) -> Entity | None:
    """The outcome's complement, its name the outcome's with the one word replaced; None
    when it has none."""
    words = outcome.name.replace("-", " - ").split()
    lowered = [w.lower() for w in words]
    opposite = [i for i, w in enumerate(lowered) if w in OPPOSITE_OUTCOME_WORDS]
    if len(opposite) != 1 or not all(
            w in PLAIN_WORDS or w.isdigit() for i, w in enumerate(lowered) if i != opposite[0]):
        return None
    words[opposite[0]] = OPPOSITE_OUTCOME_WORDS[lowered[opposite[0]]]
    return Entity.from_name(" ".join(words).replace(" - ", "-"), "outcome")

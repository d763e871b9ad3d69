"""Study facts an abstract states about itself, read from its text (no answer key).

The study's size, read two ways:
- `sample_size`: the number after "we assigned / analysed / enrolled / randomised" ("we
  assigned 2,654 women ...", "We analysed 1,203 adults ..."). The step features of SPEC §4
  use it to weigh what large and small studies report (publication bias concentrates in
  small studies); it is frozen with the features' version (dacg-features-2), as the
  shipped PRM was trained on it.
- `participants`: the same and the other ways real abstracts state it ("A total of 1,563
  recruits", "120 infants were assigned", "(n = 45)", "in 250 patients"), for judging
  whether a body of evidence is large enough to be precise (GRADE's imprecision).
And its design, `randomised`: whether it says it randomised its participants, or says it
was observational or otherwise not randomised (GRADE starts the certainty of evidence
from non-randomised studies low); and `has_control_arm`: whether it had an untreated,
placebo, sham or usual-care arm at all (a trial of two active treatments says nothing
about either against no treatment: GRADE's indirectness).
All are cheap regular-expression searches. Beside them, two judgements of an arm's name
(the question's, not the abstract's): `names_control` and the stricter `opens_as_control`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.extraction.lexicon import CONTROL_WORDS, STOP_WORDS
from pipeline.model import Abstract

SAMPLE_SIZE = re.compile(
    r"\b(?:assigned|allocated|analy[sz]ed|enrolled|randomi[sz]ed|recruited|included)\s+"
    r"(\d{1,3}(?:,\d{3})+|\d+)\b")
MAX_SAMPLE_SIZE = 10_000_000  # larger numbers are not head counts (years, IDs, typos)
_COUNT = r"(\d{1,3}(?:,\d{3})+|\d+)"
_PEOPLE = (r"(?:patients|participants|subjects|women|men|children|infants|neonates|newborns|"
           r"adults|individuals|volunteers|people|persons|mothers|students|adolescents|"
           r"pregnancies|recruits|smokers|residents|households|families|survivors|eyes)")
_ENROL = r"(?:randomi[sz]ed|assigned|allocated|enrolled|recruited|included|studied)"
# Most telling first: a stated total, a count after an enrolment verb, a counted group
# that was enrolled, an "n =", and last any counted group of people.
PARTICIPANT_PATTERNS = tuple(re.compile(p, re.IGNORECASE) for p in (
    rf"\btotal\s+of\s+{_COUNT}\b",
    rf"\b(?:{_ENROL}|analy[sz]ed)\s+(?:a\s+total\s+of\s+)?{_COUNT}\b",
    rf"\b{_COUNT}\s+(?:[a-z-]+\s+){{0,3}}?{_PEOPLE}\b[^.]{{0,60}}?\b(?:were|was)\s+"
    rf"(?:randomly\s+)?{_ENROL}",
    rf"\bn\s*=\s*{_COUNT}\b",
    rf"\b{_COUNT}\s+(?:[a-z-]+\s+){{0,3}}?{_PEOPLE}\b",
))
MIN_PARTICIPANTS = 2  # "1 patient" is a case, not a study's size


def sample_size(abstract: Abstract) -> int | None:
    """The first stated number of participants in the abstract text, or None when the
    text states none (or only an implausible one: 0 or above MAX_SAMPLE_SIZE)."""
    match = SAMPLE_SIZE.search(abstract.text)
    if match is None:
        return None
    size = int(match.group(1).replace(",", ""))
    return size if 0 < size <= MAX_SAMPLE_SIZE else None


def participants(abstract: Abstract) -> int | None:
    """The number of participants the abstract states, from the most telling pattern
    that gives a plausible count, or None when it states none."""
    text = abstract.text
    for pattern in PARTICIPANT_PATTERNS:
        for match in pattern.finditer(text):
            size = int(match.group(1).replace(",", ""))
            if MIN_PARTICIPANTS <= size <= MAX_SAMPLE_SIZE:
                return size
    return None


# "non-randomised", "not randomized", "quasi-randomised": a randomisation word that says
# the study was not randomised, removed before looking for one that says it was.
NOT_RANDOMISED = re.compile(r"\b(?:non|not|quasi|pseudo)[-\s]?randomi[sz]", re.IGNORECASE)
RANDOMISED = re.compile(r"\brandomi[sz]|\brandom(?:ly)?\s+(?:assign|allocat|divid|distribut)",
                        re.IGNORECASE)
# "Before and after" and "pre-post" name a design only before a design word ("a
# before-and-after study", "a pre-post intervention study"); "measured before and after
# therapy" is when a trial measured, and controlled trials say it (EI dev: 7 of 340
# articles, each with a control or comparison arm, were called non-randomised by it;
# EBM-NLP's RCT abstracts: 19 of 1,151). Nor is a "cross-sectional area" or an
# "observational measure" one, nor a "cohort" without a design word ("a cohort of
# patients entered on the phase III trial", "validation in larger cohorts").
_DESIGN_NOUN = r"(?:[a-z]+\s+)?(?:study|design|trial|comparison|evaluation|analysis)"
NON_RANDOMISED_DESIGNS = re.compile(
    r"\b(?:retrospective|observational(?!\s+measure)|case[-\s]control|"
    r"(?:prospective|population[-\s]based|birth)\s+cohort|cohort\s+(?:study|design|analysis)|"
    r"cross[-\s]sectional(?!\s+area)|"
    rf"(?:before[-\s]and[-\s]after|pre[-\s]?post)[-\s]{_DESIGN_NOUN}|"
    r"historical(?:ly)?\s+control|"
    r"quasi[-\s]experimental|(?:non|not|quasi)[-\s]?randomi[sz])", re.IGNORECASE)


def randomised(abstract: Abstract) -> bool | None:
    """True when the title or text says the study randomised ('randomised', 'randomly
    assigned'), False when it says only that it was observational or not randomised
    ('retrospective cohort', 'non-randomised'), None when it states neither."""
    text = f"{abstract.title} {abstract.text}"
    if RANDOMISED.search(NOT_RANDOMISED.sub(" ", text)):
        return True
    return False if NON_RANDOMISED_DESIGNS.search(text) else None


_WORD = re.compile(r"[\w-]+")
# Words that name an arm without active treatment besides CONTROL_WORDS ('the comparison
# group', 'best supportive care', 'expectant management', 'watchful waiting', 'wait list',
# 'a dummy tablet'); a word too many only keeps the rule from firing.
CONTROL_ARM_WORDS = CONTROL_WORDS | {"comparison", "unsupplemented", "supportive", "expectant",
                                     "watchful", "waiting", "wait", "dummy", "inactive",
                                     "nontreated", "non-treated"}
# 'no drains were inserted', 'did not exercise': an arm named as the treatment withheld.
WITHHOLDING_WORDS = frozenset({"no", "without", "not", "non"})
WITHHELD_REACH = 2  # the treatment word within this many words of the withholding word
ARM_WORD_CHARS = 4  # 'drains' / 'drainage', 'exercise' / 'exercised' meet on this prefix


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _words_and_parts(text: str) -> list[str]:
    """The words, each hyphenated one followed by its parts: a "placebo-controlled" or
    "sham-operated" trial had a placebo or sham arm."""
    return [part for word in _words(text)
            for part in (word, *(word.split("-") if "-" in word.strip("-") else ()))]


def names_control(comparator: str) -> bool:
    """Whether a question's comparator is no active treatment: placebo, sham, usual or
    standard care, a control, or 'no X' / 'without X'."""
    words = _words(comparator)
    return not CONTROL_WORDS.isdisjoint(words) or words[:1] in (["no"], ["without"])


# First words of an arm's name that say it has no active treatment ('placebo', 'usual
# care', 'no rehabilitation'), last words that make it another arm's base without its
# addition ('routine therapy alone'), and the longest such name (a longer one describes a
# procedure that happens to open with 'standard').
CONTROL_LEADS = frozenset({"placebo", "sham", "usual", "standard", "routine", "conventional",
                           "control", "no", "without", "waitlist", "wait", "untreated",
                           "vehicle", "observation"})
ARM_ALONE_WORDS = frozenset({"alone", "only"})
CONTROL_NAME_WORDS = 6


def opens_as_control(words: Sequence[str]) -> bool:
    """Whether an arm's name (its lower-case words) is that of an arm without the active
    treatment, judged by how it opens or ends: stricter than `names_control`, which finds
    a control word anywhere in a comparator's name, since the extractor turns a question
    round on it ('glycemic levels determined by standard monitors' is a treatment)."""
    return 0 < len(words) <= CONTROL_NAME_WORDS and (
        words[0] in CONTROL_LEADS or words[-1] in ARM_ALONE_WORDS)


def _arm_prefixes(names: tuple[str, ...]) -> set[str]:
    return {w[:ARM_WORD_CHARS] for name in names for w in _words(name)
            if len(w) > 2 and w not in STOP_WORDS and w not in WITHHOLDING_WORDS}


def has_control_arm(abstract: Abstract, arms: tuple[str, ...]) -> bool:
    """Whether the title or text names an arm without active treatment: a control word
    ('placebo', 'usual care', 'comparison group'), or one of `arms` (the question's
    intervention and comparator) withheld ('no drains were inserted')."""
    words = _words_and_parts(f"{abstract.title} {abstract.text}")
    if not CONTROL_ARM_WORDS.isdisjoint(words):
        return True
    prefixes = _arm_prefixes(arms)
    return any(word in WITHHOLDING_WORDS
               and any(w[:ARM_WORD_CHARS] in prefixes for w in words[i + 1:i + 1 + WITHHELD_REACH])
               for i, word in enumerate(words))

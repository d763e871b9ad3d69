"""The rating scales that measure what a review names as a construct.

A review asks about 'severity of depression' or 'quality of life'; the trial reports
'HAM-D scores' or 'SF-12 component scores' and may never write the construct's own
words in its results. Each scale here rises with its construct (a higher HAM-D is more
depression, a higher SF-36 more quality of life, a higher Barthel index more independence
in daily living), so a finding on the scale is a finding on the construct the same way
round. Scales that run the other way (ADAS-Cog: higher is worse cognition) and scales
of many constructs (a visual analogue scale) are left out.

Beside the table, a scale the abstract defines is the outcome's when its name's last
word before the scale noun is a word of the outcome ('Roland Morris Disability
Questionnaire (RMDQ)' for 'disability score'; not 'Pain Catastrophizing Scale' for pain).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# (the construct's words as a review writes them, the scales' names and short forms)
CONSTRUCT_SCALES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("depression|depressive", (
        "HAM-D", "HAMD", "HDRS", "HRSD", "Hamilton Depression Rating Scale", "MADRS",
        "Montgomery-Asberg Depression Rating Scale", "BDI", "BDI-II",
        "Beck Depression Inventory", "PHQ-9", "CES-D", "EPDS",
        "Edinburgh Postnatal Depression Scale", "Geriatric Depression Scale", "CDRS-R",
        "HADS-D", "QIDS", "QIDS-SR", "PHQ-8", "Children's Depression Inventory")),
    ("anxiety", ("HAM-A", "HAMA", "Hamilton Anxiety Rating Scale", "GAD-7", "STAI",
                 "State-Trait Anxiety Inventory", "Beck Anxiety Inventory", "HADS-A")),
    ("post-traumatic stress|posttraumatic stress|ptsd", (
        "CAPS", "CAPS-5", "Clinician-Administered PTSD Scale", "PCL-5", "PTSD Checklist",
        "IES-R", "Impact of Event Scale")),
    ("obsessive-compulsive|ocd", ("Y-BOCS", "YBOCS", "CY-BOCS",
                                  "Yale-Brown Obsessive Compulsive Scale")),
    ("mania|manic", ("YMRS", "Young Mania Rating Scale")),
    ("social anxiety", ("LSAS", "Liebowitz Social Anxiety Scale")),
    ("psychotic symptoms|psychotic|schizophrenia symptoms|psychopathology", (
        "PANSS", "Positive and Negative Syndrome Scale", "BPRS",
        "Brief Psychiatric Rating Scale")),
    ("quality of life", ("SF-36", "SF-12", "EQ-5D", "EQ-5D-5L", "EQ-5D-3L", "EuroQol",
                         "QLQ-C30", "EORTC QLQ-C30", "WHOQOL-BREF", "PedsQL", "FACT-G",
                         "KCCQ", "Kansas City Cardiomyopathy Questionnaire", "CRQ",
                         "Chronic Respiratory Questionnaire", "MacNew",
                         "global health status")),
    ("cognitive function|cognition", ("MMSE", "Mini-Mental State Examination", "MoCA",
                                      "Montreal Cognitive Assessment")),
    ("adhd symptoms|attention-deficit", ("SNAP-IV", "ADHD-RS", "ADHD Rating Scale")),
    ("activities of daily living|functional independence", (
        "Barthel Index", "Barthel", "FIM", "Functional Independence Measure")),
    ("upper limb function|upper extremity function|arm function|arm motor function", (
        "ARAT", "Action Research Arm Test", "Fugl-Meyer", "Box and Block Test")),
    ("balance", ("Berg Balance Scale", "BBS")),
    ("knee function", ("KOOS", "KOOS4", "Knee Injury and Osteoarthritis Outcome Score",
                       "IKDC", "Lysholm")),
    ("neuropsychiatric symptoms", ("NPI", "Neuropsychiatric Inventory")),
    ("agitation", ("CMAI", "Cohen-Mansfield Agitation Inventory")),
    ("sleepiness", ("ESS", "Epworth Sleepiness Scale")),
    ("back-related disability|back pain disability|low back disability|^disability$", (
        "ODI", "Oswestry Disability Index", "Roland-Morris", "RMDQ")),
    ("exercise capacity|walking capacity", (
        "6MWD", "6MWT", "six-minute walk distance", "6-minute walk distance",
        "six-minute walk test", "6-minute walk test")),
    ("exercise capacity|cardiorespiratory fitness|aerobic capacity", (
        "VO2peak", "peak VO2", "peak oxygen uptake", "VO2max", "maximal oxygen uptake",
        "shuttle walk distance", "incremental shuttle walk")),
    ("stroke severity|neurological deficit", ("NIHSS", "NIH Stroke Scale")),
    ("psoriasis severity", ("PASI", "Psoriasis Area and Severity Index")),
    ("urinary symptoms|lower urinary tract symptoms", (
        "IPSS", "International Prostate Symptom Score")),
    ("sleep quality", ("PSQI", "Pittsburgh Sleep Quality Index")),
    ("insomnia severity", ("ISI", "Insomnia Severity Index")),
    ("erectile function", ("IIEF", "International Index of Erectile Function")),
)
_CONSTRUCTS = tuple((re.compile(rf"\b(?:{words})\b"), scales)
                    for words, scales in CONSTRUCT_SCALES)


# An outcome that is the construct's end, not its amount ('no longer meeting criteria for
# PTSD', 'remission of depression'): a scale's score runs the other way or not at all.
_ENDED = re.compile(r"\b(?:no longer|remission|remitted|recovery|recovered|response|"
                    r"responders?|free of|loss of)\b")


def scales_of(outcome: str) -> list[str]:
    """The scales that measure the outcome's construct ('severity of depressive
    symptoms' -> 'HAM-D', 'MADRS', ...); none when the outcome names no construct here
    or its end."""
    lowered = outcome.lower()
    if _ENDED.search(lowered):
        return []
    return [scale for pattern, scales in _CONSTRUCTS if pattern.search(lowered)
            for scale in scales]


# The nouns a scale's name ends with, and words between them and the construct's word
# ('Hamilton Depression Rating Scale', 'Insomnia Severity Index').
SCALE_NOUNS = frozenset({"scale", "questionnaire", "index", "inventory", "score", "test",
                         "assessment", "measure", "instrument"})
SCALE_FILLERS = frozenset({"rating", "severity", "symptom", "symptoms", "status",
                           "self-report", "self-rating"})


def defined_scales(outcome: str, abbreviations: Iterable[tuple[str, str]]) -> list[str]:
    """The short and long forms of the scales the abstract defines whose name's construct
    word is a word of the outcome."""
    outcome_words = set(outcome.lower().replace("-", " ").split())
    found: list[str] = []
    for short, long in abbreviations:
        words = long.lower().split()
        if len(words) < 2 or words[-1] not in SCALE_NOUNS:
            continue
        construct = next((w for w in reversed(words[:-1]) if w not in SCALE_FILLERS), None)
        if construct in outcome_words:
            found += [short, long]
    return found

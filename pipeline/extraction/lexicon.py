"""The project's own cue lexicon, in one place: which words signal an effect's direction,
a null finding, negation, hedging, a comparison's reference arm, a clause boundary or a
mediator, the spaCy patterns built from them, and `Lexicon`, which matches the phrases
and patterns in a sentence.

Everything a reader of abstracts would call vocabulary lives here, so that a change of
wording is a change of this file; `rules.py` and the modules it calls (reading a
sentence) and `mediators.py` (discovering mediators) hold only the logic that uses it.
Forms are lower-case surface words (the blank pipeline has no lemmatiser).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # spaCy is imported when a Lexicon is built: mesh.py and stats.py
    # import this module's word lists without loading spaCy
    from spacy.language import Language
    from spacy.tokens import Doc, Span


def _forms(*stems: str) -> frozenset[str]:
    """Expand 'reduc:e,ed,es,ing,tion' style entries into surface words."""
    words: set[str] = set()
    for stem in stems:
        base, _, endings = stem.partition(":")
        if not endings:
            words.add(base)
        for ending in endings.split(","):
            words.add(base + ending.strip())
    return frozenset(words)


# Verbs and nouns that state a change of the thing they govern.
INCREASE_VERBS = _forms(
    "increas:e,ed,es,ing", "increment", "rais:e,ed,es,ing", "rise", "rose", "risen", "rising",
    "elevat:e,ed,es,ing,ion", "enhanc:e,ed,es,ing,ement", "augment:,ed,s,ing,ation",
    "boost:,ed,s,ing", "improv:e,ed,es,ing,ement,ements", "prolong:,ed,s,ing,ation",
    "extend:,ed,s,ing", "doubl:e,ed,es,ing", "tripl:e,ed,es,ing", "gain:,ed,s",
    "promot:e,ed,es,ing", "stimulat:e,ed,es,ing", "accelerat:e,ed,es,ing",
    "exacerbat:e,ed,es,ing", "upregulat:e,ed,es,ing,ion",
    "induc:e,ed,es,ing", "potentiat:e,ed,es,ing", "restor:e,ed,es,ing",
)
DECREASE_VERBS = _forms(
    "decreas:e,ed,es,ing", "reduc:e,ed,es,ing,tion,tions", "lower:,ed,s,ing",
    "declin:e,ed,es,ing", "fall", "fell", "fallen", "falling", "falls", "drop:,ped,s,ping",
    "diminish:,ed,es,ing", "attenuat:e,ed,es,ing,ion", "suppress:,ed,es,ing,ion",
    "inhibit:,ed,s,ing,ion", "prevent:,ed,s,ing", "alleviat:e,ed,es,ing",
    "reliev:e,ed,es,ing", "shorten:,ed,s,ing", "lessen:,ed,s,ing", "decrement",
    "cut", "halv:e,ed,es,ing", "mitigat:e,ed,es,ing", "abolish:,ed,es,ing",
    "eliminat:e,ed,es,ing", "downregulat:e,ed,es,ing,ion", "slow:,ed,s,ing",
    "minimi:ze,zed,zes,zing,se,sed,ses,sing", "ameliorat:e,ed,es,ing",
    "blunt:,ed,s,ing", "depress:,ed,es,ing", "deplet:e,ed,es,ing,ion",
    # protection against the outcome ('protective efficacy 39%') is less of it
    "protect:,ed,s,ing,ion,ive",
)
# Comparatives: their subject is the arm that has more / less of the outcome.
MORE_WORDS = _forms(
    "higher", "greater", "more", "larger", "longer", "bigger", "faster", "better",
    "elevated", "increased", "superior", "excess", "additional", "highest", "greatest",
    "longest", "most", "stronger", "frequent", "commoner", "heavier", "wider", "earlier",
    "outperform:,ed,s,ing",
)
LESS_WORDS = _forms(
    "lower", "less", "fewer", "smaller", "shorter", "slower", "reduced", "decreased",
    "lowest", "least", "fewest", "shortest", "smallest", "inferior", "weaker", "rarer",
    "lighter", "narrower", "later",
)
# Some words read as a change only next to an explicit statistic or comparison.
WEAK_CUES = frozenset({"better", "worse", "superior", "inferior", "earlier", "later",
                       "frequent", "additional", "excess", "most", "more", "less",
                       "induce", "induced", "induces", "inducing", "restore", "restored",
                       "extend", "extended", "gain", "gained", "cut", "slow", "slowed"})

NULL_PHRASES = (
    "no significant difference", "no significant differences", "no statistically significant",
    "no significant", "not significantly", "not statistically significant",
    "not significant", "non significant", "nonsignificant", "non-significant",
    "insignificant", "insignificantly", "did not differ", "do not differ", "does not differ",
    "not differ",
    "no difference", "no differences", "no between-group difference",
    "no between-group differences", "no significant between-group",
    "similar", "comparable", "equivalent", "unchanged", "did not change", "no change",
    "no changes", "was not associated", "were not associated", "not associated",
    "no association", "no effect", "no effects", "no impact", "no benefit",
    "did not reach statistical significance", "did not reach significance",
    "failed to reach", "failed to show", "failed to demonstrate", "failed to find",
    "failed to detect", "failed to observe", "did not improve",
    "as effective as", "as safe as", "equally effective", "not different",
    "no evidence of", "neither", "no clear difference", "no relevant difference",
    "no detectable", "no clinically", "remained stable", "n.s.", "ns",
    "not statistically different", "not superior", "non-inferior", "noninferior",
    "did not significantly", "does not appear", "did not appear", "do not support",
    "does not support", "did not support", "not support", "lack of statistical significance",
    "lack of significance", "not statistically meaningful", "not meaningful",
    "in both groups", "in both arms", "in both treatment groups", "in all groups",
    "in each group", "in either group", "in either arm", "in any group", "in any arm",
    "in both cases", "for both groups",
    "between-group differences were not", "no longer significant", "non-significantly",
    "nonsignificantly", "no different", "unaffected by",
)
# Section labels whose sentences describe the question or the design, not a finding.
NON_FINDING_SECTIONS = ("BACKGROUND", "INTRODUCTION", "IMPORTANCE", "OBJECTIVE", "AIM", "PURPOSE",
                        "METHOD", "DESIGN", "SETTING", "PARTICIPANT", "INTERVENTION",
                        "MEASURE", "REGISTRATION", "FUNDING", "CONTEXT", "ANIMALS",
                        "STATISTICAL", "TRIAL", "PATIENTS", "SUPPLEMENTARY", "MATERIAL")
FINDING_SECTIONS = ("RESULT", "FINDING", "CONCLUSION", "INTERPRETATION", "SUMMARY",
                    "DISCUSSION", "HIGHLIGHT", "EFFICACY", "SAFETY")
# A section label opening a sentence ('METHODS:', 'RESULTS AND DISCUSSION:').
SECTION_LABEL = re.compile(r"([A-Z][A-Z /&]{2,40}):")
# 'was not found / shown to be superior': verbs of finding that a 'not' before them negates
# the claim after 'to be'.
FINDING_VERBS = frozenset({"found", "shown", "proven", "proved", "demonstrated", "observed",
                           "seen"})
# 'ineffective in preventing X', 'not better than C in reducing X': judgements of what the
# intervention did to the outcome named after 'in'.
INEFFECTIVE_WORDS = frozenset({"ineffective", "inefficacious", "ineffectual"})
JUDGEMENT_WORDS = frozenset({"better", "superior", "more", "effective", "efficacious",
                             "beneficial", "useful", "helpful"})
# 'failed to reduce': what follows 'to' is a result that did not come, not an aim.
FAILED_WORDS = frozenset({"failed", "fails", "fail", "unable"})
NEGATIONS = frozenset({"not", "no", "neither", "nor", "without", "never", "n't", "cannot",
                       "none", "lack", "lacked", "absence"}) | FAILED_WORDS
HEDGES = frozenset({"may", "might", "could", "possibly", "perhaps", "suggest", "suggests",
                    "suggested", "suggesting", "appear", "appears", "appeared", "likely",
                    "potentially", "putative", "presumably", "trend", "trends", "tended",
                    "tendency", "tend", "tends", "thought", "hypothesised", "hypothesized",
                    "speculate", "unclear", "uncertain", "conflicting", "numerically",
                    "marginally", "borderline", "modest", "slightly", "seem", "seems"})
# A sentence with one of these states an aim or a question, not a finding.
OBJECTIVE_WORDS = frozenset({"whether", "aimed", "aim", "aims", "objective", "objectives",
                             "purpose", "hypothesis", "hypothesized", "hypothesised",
                             "investigate", "evaluate", "assess", "determine", "examine",
                             "explore", "compare", "designed", "sought", "remains", "unknown",
                             "unclear", "uncertain", "conflicting", "controversial",
                             "rationale", "protocol", "estimate"})
# 'Response was assessed by the Hamilton scales': how a measure was taken, in a sentence
# without a statistic, is method, not a finding.
MEASURING_VERBS = frozenset({"assessed", "measured", "evaluated", "recorded", "determined",
                             "quantified", "rated", "scored"})
MEASURING_MEANS = frozenset({"by", "with", "using", "via"})
# A sentence on how two measures go together ('correlations between changes in atheroma
# volume and triglycerides', 'response was not correlated with age') compares no arms.
CORRELATION_WORDS = _forms("correlat:e,ed,es,ing,ion,ions")
# A sentence that opens on a comparison ('Compared with ..., ', 'As compared to ..., ',
# 'In comparison to ..., ', 'Relative to ..., ', after at most a section label) names its
# reference arm in the phrase up to its comma.
OPENING_MARKERS = frozenset({"compared", "comparison", "relative", "versus"})
OPENING_LEADS = frozenset({"as", "when", "in"})
# "than X", "compared with X": X is the reference arm.
COMPARE_PHRASES = ("compared with", "compared to", "in comparison with", "in comparison to",
                   "relative to", "as compared with", "as compared to", "when compared with",
                   "when compared to", "in contrast to", "than", "versus", "vs", "vs.",
                   "over", "against", "superior to", "inferior to")
# Units and spans of time: 'over 6 h', 'over the study period' say when, not against what.
TIME_WORDS = frozenset({"h", "hr", "hrs", "hour", "hours", "min", "minute", "minutes", "day",
                        "days", "week", "weeks", "month", "months", "year", "years",
                        "decade", "decades", "period", "course", "time", "follow-up",
                        "duration", "night", "nights"})
TIME_LOOKAHEAD = 3  # 'over the first year': the time word within this many tokens
# Group nouns that stand in for an arm ("in the placebo group").
CONTROL_WORDS = frozenset({"placebo", "control", "controls", "sham", "usual", "standard",
                           "conventional", "comparator", "untreated", "vehicle",
                           "non-users", "nonusers", "unexposed", "no-treatment", "saline",
                           "routine", "waitlist", "wait-list", "observation"})
# Words that make a following 'control' a state of the patient ('symptom control',
# 'glycaemic control'), not the control arm.
CONTROLLED_WORDS = _forms("glycemic", "glycaemic", "glucose", "metabolic", "pressure",
                          "volume", "disease", "asthma", "symptom:,s", "pain", "seizure:,s",
                          "infection", "weight", "rate", "rhythm", "lipid", "bladder", "bowel",
                          "tumour", "tumor", "impulse", "motor", "postural", "cinv")
TREATED_WORDS = frozenset({"intervention", "treatment", "treated", "active", "experimental",
                           "study", "exposed", "users", "supplemented", "supplementation"})
# Words before a hyphen that make the group word after it the arm without treatment
# ('non-exposed group', 'no-treatment group').
NEGATING_PREFIXES = frozenset({"non", "no", "un"})
# Words after which a control word names a statistic, not an arm ('standard deviation').
STATISTIC_NOUNS = frozenset({"deviation", "deviations", "error", "errors"})
# Nouns that name the arms together ('no difference between groups').
ARM_NOUNS = frozenset({"groups", "group", "arms", "arm", "treatments", "regimens",
                       "conditions", "cohorts"}) | CONTROL_WORDS | TREATED_WORDS
# Cues that say "better"/"worse" rather than "more"/"less": for an adverse outcome
# (pain, mortality) an improvement is a decrease and a worsening an increase.
WORSE_WORDS = _forms("worse", "worsen:,ed,s,ing", "impair:,ed,s")
VALENCE_CUES = _forms("improv:e,ed,es,ing,ement,ements", "better", "worse",
                      "worsen:,ed,s,ing", "impair:,ed,s", "superior", "inferior", "benefit:,ed,s",
                      "beneficial", "outperform:,ed,s,ing")
# Adjectives of efficacy a comparative grades ('more effective'): a valence, like 'better'.
EFFICACY_WORDS = frozenset({"effective", "efficacious"})
# Pace words: for an outcome that is a time ('time to recovery', 'operative time'),
# 'recovered earlier' or 'faster' is less of it, 'later' or 'slower' more.
PACE_CUES = frozenset({"earlier", "faster", "sooner", "quicker", "later", "slower"})
# Pace words a comparative grades ('more rapid recovery', 'less quickly'): for a time, the
# comparative's sign turns round as a pace cue's does.
PACE_WORDS = frozenset({"rapid", "rapidly", "quick", "quickly", "prompt", "promptly"})
# What sets one arm's value, or name, against the other's ('18.1% vs 27.3%', 'oral vs LAI').
VERSUS_WORDS = frozenset({"vs", "vs.", "versus", "v", "v."})
# A stay is a time too ('length of hospital stay': 'discharged earlier' is a shorter one).
TIME_OUTCOME_WORDS = frozenset({"time", "times", "duration", "latency", "stay"})
# 'reduction in pain', 'decline of FEV1': an outcome named as its own fall.
REDUCTION_OUTCOME_WORDS = frozenset({"reduction", "reductions", "decrease", "decreases",
                                     "decline", "fall", "drop", "lowering"})
# Words that make an outcome named after something adverse a good one ('pain relief',
# 'symptom improvement', 'pain-free', 'protection against infection', 'smoking cessation',
# 'caries arrest', 'survival without neurodevelopmental disability').
GOOD_OUTCOME_WORDS = _forms("relief", "improvement:,s", "free", "protection", "resolution",
                            "remission", "cessation", "abstinence", "clearance", "arrest",
                            "without")
ADVERSE_OUTCOME_WORDS = _forms(
    "pain", "ache", "stiffness", "symptom:,s", "severity", "disability", "fatigue",
    "anxiety", "depression", "depressive", "nausea", "vomiting", "pruritus", "itch:,ing",
    "discomfort", "dryness", "swelling", "edema", "oedema", "inflammation", "mortality",
    "death:,s", "morbidity", "risk", "infection:,s", "complication:,s", "adverse",
    "toxicity", "relapse", "recurrence", "exacerbation:,s", "distress", "stress",
    "insomnia", "dyspnea", "dyspnoea", "breathlessness", "cough", "bleeding",
    "haemorrhage", "hemorrhage", "negative", "craving", "failure", "injury",
    "lesion:,s", "hypersensitivity", "impairment", "dysfunction", "burden",
    "sleepiness", "constipation", "diarrhoea", "diarrhea", "agitation", "delirium",
    "reaction:,s", "irritability",
    # symptoms, events and behaviours a trial wants fewer of
    "conflict:,s", "problem:,s", "difficult:y,ies", "aggression", "hyperactivity",
    "inattention", "impulsivity", "anger", "hostility", "compulsive", "compulsion:,s",
    "obsessive", "obsession:,s", "repetitive", "stereotyp:y,ies", "hallucination:,s",
    "psychosis", "suicidal", "suicidality", "tremor:,s", "spasticity", "wheez:e,ing",
    "awakening:,s", "hospitalization:,s", "hospitalisation:,s", "readmission:,s",
    "incontinence", "leakage", "tenderness", "erythema", "scarring", "hypotension",
    "hypoglycemia", "hypoglycaemia", "bradycardia", "tachycardia", "shivering",
    "drowsiness", "dizziness", "headache:,s", "fever", "rash", "obstruction", "stenosis",
    "restenosis", "thrombosis", "embolism", "occlusion", "rejection", "dependence",
    "rescue", "apnea", "apnoea", "snoring", "hypoxemia", "hypoxaemia", "desaturation",
    "atelectasis", "hoarseness", "cramp:,s", "spasm:,s", "seizure:,s", "stroke:,s",
    "infarction", "fracture:,s", "caries", "plaque", "gingivitis", "anemia", "anaemia",
    "malnutrition", "stunting", "parasitemia", "parasitaemia", "sore", "nightmares",
    "sweating", "flushing", "bloating", "flatulence",
)
# Words that name no entity: function words, arm and people nouns, units and frequencies
# (an entity's keywords and a phrase's content words leave them out).
STOP_WORDS = frozenset({
    "the", "a", "an", "of", "in", "on", "and", "or", "with", "for", "to", "by", "at", "from",
    "as", "vs", "vs.", "versus", "plus", "alone", "its", "their", "this", "that", "than",
    "was", "were", "is", "are", "be", "been", "who", "which", "per", "each", "any", "all",
    "both", "only", "into", "via", "after", "before", "during", "within", "without", "not",
    "no", "s", "'s", "i", "we", "it", "other", "these", "those", "such", "using", "used",
    "receiving", "received", "given", "including", "included", "group", "groups", "arm",
    "arms", "patients", "participants", "subjects", "people", "children", "adults", "women",
    "men", "mg", "kg", "ml", "g", "h", "min", "day", "daily", "once", "twice", "weekly",
})
# How, how often and how much an arm is given ('single-dose oral', 'biannual mass'):
# results name what is given without them.
REGIMEN_WORDS = frozenset({
    "single", "dose", "doses", "oral", "intravenous", "intramuscular", "subcutaneous",
    "topical", "low", "high", "mass", "biannual", "annual", "monthly", "extended",
    "release", "sustained"})
# Outcome words that carry little identity: "rate of X" is about X.
GENERIC_OUTCOME_WORDS = frozenset({
    "rate", "rates", "risk", "incidence", "number", "level", "levels", "mean", "median",
    "total", "overall", "change", "changes", "score", "scores", "duration", "time",
    "frequency", "proportion", "percentage", "occurrence", "prevalence", "likelihood",
    "degree", "amount", "severity", "count", "counts", "value", "values", "measure",
    "measures", "effect", "effects", "improvement", "reduction", "increase", "patients",
    "group", "groups", "participants", "subjects", "at", "end", "baseline", "follow-up",
    "months", "month", "weeks", "week", "days", "day", "years", "year", "hours", "hour",
    "intervention", "treatment", "therapy", "use", "after", "during", "period",
    "concentration", "concentrations", "status", "outcome", "outcomes", "index",
    "serum", "plasma", "blood", "urinary", "circulating", "salivary",
})

# Words a question and an abstract use for the same outcome ("risk of death" / "90-day
# mortality", "treatment retention" / "retained in treatment", "wound healing" / "healed
# wounds"): the fuzzy outcome match gives each group one stem. Beyond synonyms, the forms of
# short words the six-character stem keeps apart ('healin' / 'healed'); not words that are
# also directions ('fell', 'falling') or time points ('admission').
SAME_OUTCOME_WORDS = {word: common for common, words in (
    ("death", ("mortality", "mortalities", "died", "die", "dying", "deaths", "dead",
               "fatality", "fatalities")),
    ("retain", ("retention", "retained", "retaining")),
    ("spectacles", ("glasses", "eyeglasses")),
    ("leak", ("leakage", "leakages", "leaked", "leaking", "leaks")),
    ("heal", ("healing", "healed", "heals")),
    ("bleed", ("bleeding", "bleedings", "bled", "bleeds")),
    ("vomit", ("vomiting", "vomited", "vomits", "emesis")),
    ("itch", ("itching", "itchiness", "pruritus")),
    ("walk", ("walking", "walked", "walks")),
    ("wear", ("wearing", "worn")),
    ("sleep", ("sleeping", "slept")),
    ("cry", ("crying", "cried", "cries")),
    ("cough", ("coughing", "coughs")),
    ("wheeze", ("wheezing", "wheezes")),
    ("swell", ("swelling", "swollen")),
    ("scar", ("scarring", "scars")),
    ("smoke", ("smoking", "smoked")),
    ("conceive", ("conception", "conceived")),
    ("admit", ("admission", "admissions", "admitted")),
    ("resolve", ("resolution", "resolved", "resolves")),
    ("remit", ("remission", "remissions", "remitted")),
) for word in words}

# Reading a sentence (rules.py and its helpers): clause boundaries, signs, definitions.
CLAUSE_BREAKS = frozenset({";", "but", "whereas", "however", "although", "while"})
# Words after a 'but' that open the other arm's value, not a verb of its own ('but in only
# 1.0%', 'but only 3 of 40').
ELLIPTIC_LEADS = frozenset({"in", "only", "among", "for"})
CONCESSIONS = frozenset({"although", "though", "despite", "while", "whereas"})
ARM_PREPOSITIONS = frozenset({"in", "with", "among", "for", "on", "following", "after",
                              "from", "by", "under", "using", "receiving", "of"})
SIGNIFICANT_WORDS = frozenset({"significant", "significantly", "statistically"})
DEFINITION_PHRASES = ("outcome was", "outcomes were", "outcomes included", "outcome measure",
                      "endpoint was", "endpoints were", "outcomes was", "end point was",
                      "end points were", "end points included", "endpoints included",
                      # prior knowledge or an assumption, not this study's finding ("is
                      # thought to act through M" stays: it names a mechanism to follow)
                      "is known to", "are known to", "is believed to", "are believed to",
                      "is assumed to", "are assumed to", "have been documented",
                      "has been documented",
                      # how a measure varies with another (dose, concentration), not how
                      # the arms differ
                      "relationship between", "correlation between",
                      "correlations between", "correlated with", "correlation with")
# Comparisons of the arms before treatment: how alike the groups were, not a result.
BASELINE_PHRASES = (("at", "baseline"), ("before", "the", "intervention"),
                    ("before", "intervention"), ("before", "treatment"),
                    ("baseline", "characteristics"), ("prior", "to", "treatment"),
                    ("prior", "to", "the", "intervention"))
# Units of a drug's dose ('etoricoxib 60 mg'): a number before one is a dose.
DOSE_UNITS = frozenset({"mg", "g", "mcg", "µg", "ug", "ml", "iu", "u", "units", "mmol",
                        "micrograms", "milligrams", "grams"})
# Numbers written as words ('one case out of 3632', 'two-year follow-up').
COUNT_VALUES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "eighteen": 18, "twenty": 20}
# Counts spelled out past twelve ('thirty-one of 47'): the teens and the tens.
SPELLED_TEENS = {"eleven": 11, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
                 "seventeen": 17, "nineteen": 19}
SPELLED_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
                "seventy": 70, "eighty": 80, "ninety": 90}
# 'one or more', 'two or fewer': a count before 'or' makes the comparative an amount.
COUNT_WORDS = frozenset(word for word, value in COUNT_VALUES.items() if value <= 10)
# Stages and grades written as Roman numerals ('stage II or greater').
ROMAN_NUMERALS = frozenset({"i", "ii", "iii", "iv"})
# 'more than a decade', 'less than half', 'more than two', 'more than doubled': an amount
# follows.
AMOUNT_LEADS = COUNT_WORDS | {"a", "an", "half", "twice", "double", "doubled", "tripled",
                              "trebled", "quadrupled", "halved"}
# Plain degree words, read as comparatives only right before the outcome in a clause that
# compares the arms ('relatively low prevalence compared to the control houses').
DEGREE_WORDS = {"low": -1, "high": 1}
# 'the most common / frequent adverse event': a ranking of events within the trial.
RANKED_WORDS = frozenset({"common", "commonly", "frequent", "frequently", "prevalent"})
# Words before 'the baseline' that make it the start of a change, not a description.
CHANGE_PREPOSITIONS = frozenset({"from", "to", "over", "since", "for", "with", "versus",
                                 "vs", "vs.", "than", "above", "below"})
ASSOCIATION_WORDS = frozenset({"associated", "correlated", "related", "linked"})
LIKENESS_WORDS = frozenset({"similar", "comparable", "alike"})
# 'a similar score to C', 'the same rate as C': the head likened to the comparator.
LIKENED_WORDS = LIKENESS_WORDS | {"equivalent", "identical", "same", "equal"}
LIKENED_LINKS = frozenset({"to", "with", "as"})
# 'reduced A but not B', 'efficacy against A but not against B', 'lower with drug A but
# not with drug B': B is set apart from the finding, so nothing moved it (or it moved
# nothing). The words that may stand between 'not' and B:
SET_APART_MARKERS = frozenset({"but", "and"})
SET_APART_LEADS = frozenset({"against", "on", "in", "for", "of", "the", "with", "to", "its",
                             "their", "at", "by", "among"})
SIGN_OF = {**{w: 1 for w in INCREASE_VERBS | MORE_WORDS},
           **{w: -1 for w in DECREASE_VERBS | LESS_WORDS | WORSE_WORDS},
           "inversely": -1, "inverse": -1, "negatively": -1, "positively": 1,
           "high": 1, "low": -1}
# 'high'/'low' are cues only as predicates ('was significantly low'), not in 'high dose'.
# So is 'impaired' ('significantly impaired recognition'), not in a population's
# condition ('adults with impaired glucose tolerance').
PREDICATE_ONLY = frozenset({"high", "low"}) | _forms("impair:,ed,s")
PREDICATE_LEADS = frozenset({"significantly", "statistically", "was", "were", "is", "are",
                             "remained", "markedly", "considerably", "be", "been",
                             "substantially", "too"})
GRADING_WORDS = frozenset({"more", "greater", "larger", "bigger", "less", "smaller"})
CHANGE_WORDS = frozenset(w for w in INCREASE_VERBS | DECREASE_VERBS
                         if w not in GRADING_WORDS and w not in VALENCE_CUES)
COMBINATION_JOINERS = frozenset({"and", "plus", "+", "with"})
# '..., but (although) the difference was not significant': the clause after the tail's
# refers back
FOLLOW_UP_BREAKS = frozenset({"but", "however", "although", ";"})
FOLLOW_UP_SUBJECTS = frozenset({"difference", "differences", "decrease", "increase",
                                "reduction", "improvement", "change", "effect", "trend",
                                "comparison", "comparisons", "it", "this", "these",
                                "results", "result"})
# A sentence opening 'These differences ...' refers back to the one before it.
REFERRING_WORDS = frozenset({"this", "these", "the", "such", "that", "those"})

# Mediator discovery ('X also raised M'): the object phrase after a change verb.
# Words that end the phrase (prepositions, conjunctions, verbs of being).
PHRASE_STOPPERS = frozenset({"in", "compared", "than", "among", "by", "at", "from", "with",
                             "during", "after", "vs", "versus", "and", "or", "but", "was",
                             "were", "is", "are", "when", "relative", "over", "for", "to",
                             "between", "which", "that", "as", "while", "whereas", "on"})
# Verbs (and their nouns) whose object is what changed: 'X raised M'. Comparatives
# ('higher') and predicates ('is high') say nothing about an object.
CHANGE_VERBS = (INCREASE_VERBS | DECREASE_VERBS) - {
    w for w in MORE_WORDS | LESS_WORDS if not w.endswith("ed")}
# A change verb after one of these is a predicate ('was reduced'), not an action on M.
COPULAS = frozenset({"is", "was", "were", "are", "be", "been", "being", "remained"})
# Words before an outcome's head noun that do not name another measure ('significant
# gain', 'mean gain', 'greater gain', 'was gain'): what is said of the outcome, not which
# one it is (locate.py: a rival measure is the head noun under any other content word).
NOT_RIVAL_WORDS = (frozenset({"average", "weekly", "daily", "monthly", "total", "net",
                              "overall", "absolute", "relative", "cumulative"})
                   | STOP_WORDS | GENERIC_OUTCOME_WORDS | frozenset(SIGN_OF) | VALENCE_CUES
                   | WEAK_CUES | SIGNIFICANT_WORDS | GRADING_WORDS | NEGATIONS | HEDGES
                   | COPULAS | CLAUSE_BREAKS | CHANGE_PREPOSITIONS)
# 'inhibition of M': the mechanism word is skipped, M is the mediator.
MECHANISM_NOUNS = frozenset({"inhibition", "suppression", "activation", "stimulation",
                             "modulation", "blockade", "induction", "enhancement", "release",
                             "production", "synthesis", "expression", "secretion"})
# Words skipped at the start of the object phrase ('also reduced the serum M').
LEADING_SKIPS = frozenset({"the", "a", "an", "in", "of", "significantly", "significant",
                           "markedly", "substantially", "its", "their", "both", "serum",
                           "plasma", "also"})

# spaCy Matcher patterns, run by Lexicon around their trigger words.
# The nouns and verbs a negation turns into a null finding ('no difference', 'did not
# affect').
_NULL_PATTERN_NOUNS = ["difference", "differences", "change", "changes", "effect",
                       "effects", "impact", "association", "benefit", "improvement",
                       "improvements", "increase", "reduction", "decrease", "significance",
                       "superiority", "advantage", "influence", "variation"]
# Plural nouns that name every arm together ('none of the techniques').
_ARMS_TOGETHER = ["groups", "arms", "treatments", "techniques", "interventions", "regimens",
                  "methods", "strategies", "approaches", "drugs", "agents", "programmes",
                  "programs", "procedures", "conditions", "therapies", "devices"]
_NULL_PATTERN_VERBS = ["differ", "change", "affect", "alter", "influence", "modify", "vary",
                       "improve", "reduce", "increase", "decrease", "lower", "raise", "show",
                       "reach", "result", "lead", "produce", "cause", "impact", "benefit",
                       # 'we did not find any significant differences'
                       "find", "detect", "observe", "reveal", "demonstrate",
                       # 'did not achieve statistical significance'
                       "achieve", "attain"]
NULL_PATTERNS: list[list[dict[str, Any]]] = [
    # "no group differences", "no statistically significant between-group difference"
    [{"LOWER": {"IN": ["no", "without", "nor", "neither"]}}, {"OP": "?"}, {"OP": "?"},
     {"OP": "?"}, {"LOWER": {"IN": _NULL_PATTERN_NOUNS}}],
    # 'there is no evidence that A reduces the rate of X', 'no evidence to support': the
    # claim that follows is denied (not 'no evidence of disease', a patient's state)
    [{"LOWER": "no"}, {"LOWER": "evidence"}, {"LOWER": {"IN": ["that", "to"]}},
     {"LOWER": {"IN": ["suggest", "support", "show", "indicate"]}, "OP": "?"}],
    # "did not significantly differ", "were not different", "does not affect"
    [{"LOWER": {"IN": ["did", "does", "do", "was", "were", "is", "are", "had", "has",
                       "could", "can", "would"]}},
     {"LOWER": {"IN": ["not", "n't"]}}, {"OP": "?"},
     {"LOWER": {"IN": [*_NULL_PATTERN_VERBS, "different", "significant", "altered",
                       "changed", "affected", "influenced", "modified"]}}],
    [{"LOWER": {"IN": ["equally", "similarly"]}}, {"LOWER": {"IN": [
        "effective", "efficacious", "safe", "well", "good"]}}],
    # 'the efficacy not being significantly different from ranitidine'
    [{"LOWER": "not"}, {"LOWER": {"IN": ["being", "been"]}}, {"OP": "?"},
     {"LOWER": {"IN": ["different", "significant", "altered", "changed", "affected"]}}],
    # 'A and B equally stimulated hypertrophy', 'were equally superior to placebo': the
    # same change with both, no difference between them
    [{"LOWER": "equally"}, {"IS_ALPHA": True}],
    # "does not have a significantly larger effect", "did not show any benefit", "do not
    # indicate any significant difference"
    [{"LOWER": {"IN": ["did", "does", "do", "had", "has"]}}, {"LOWER": {"IN": ["not", "n't"]}},
     {"LOWER": {"IN": ["have", "show", "produce", "exert", "yield", "confer", "provide",
                       "indicate", "suggest"]}},
     {"LOWER": {"IN": ["a", "an", "any"]}, "OP": "?"}, {"OP": "?"}, {"OP": "?"},
     {"LOWER": {"IN": _NULL_PATTERN_NOUNS}}],
    # "None of the techniques had a significant effect", "none of the treatments showed
    # any benefit": every arm named together, none with an effect
    [{"LOWER": "none"}, {"LOWER": "of"}, {"LOWER": {"IN": ["the", "these", "both"]}, "OP": "?"},
     {"LOWER": {"IN": _ARMS_TOGETHER}},
     {"LOWER": {"IN": ["had", "has", "have", "showed", "shows", "show", "produced", "exerted",
                       "made", "yielded", "resulted"]}},
     {"LOWER": {"IN": ["a", "an", "any", "in"]}, "OP": "?"},
     {"LOWER": {"IN": ["significant", "statistically", "measurable", "detectable",
                       "clinically", "meaningful", "relevant"]}},
     {"OP": "?"}, {"LOWER": {"IN": _NULL_PATTERN_NOUNS}}],
]
# A change within every arm says nothing about the difference between arms.
WITHIN_PATTERNS: list[list[dict[str, Any]]] = [
    [{"LOWER": {"IN": ["in", "within", "for", "among"]}}, {"LOWER": {"IN": [
        "both", "all", "each", "either"]}}, {"OP": "?"}, {"OP": "?"}, {"OP": "?"},
     {"LOWER": {"IN": ["groups", "group", "arms", "arm", "cases", "treatments"]}}],
    [{"LOWER": {"IN": ["in", "within", "for"]}}, {"LOWER": "both"}],
    # 'All groups showed improved speed of processing'
    [{"LOWER": "all"}, {"OP": "?"}, {"LOWER": {"IN": ["groups", "arms"]}},
     {"LOWER": {"IN": ["showed", "improved", "increased", "decreased", "reduced", "had",
                       "presented", "demonstrated", "experienced", "exhibited", "achieved"]}}],
    [{"LOWER": "within"}, {"ORTH": "-", "OP": "?"}, {"LOWER": {"IN": ["group", "groups"]}}],
    # 'Both toothbrushes reduced gingival bleeding', 'Both regimens improved pain'
    [{"LOWER": "both"}, {"OP": "?"}, {"LOWER": {"REGEX": "^[a-z-]+s$"}},
     {"LOWER": {"IN": ["showed", "improved", "increased", "decreased", "reduced", "lowered",
                       "raised", "produced", "achieved", "resulted", "led"]}}],
]


# Every windowed pattern has one of these words as its first or second token.
PATTERN_TRIGGERS = frozenset({"no", "without", "nor", "neither", "not", "n't", "equally", "none",
                              "similarly", "both", "all", "each", "either", "within"})
# Patterns use no repeat operators but '?', so no match is longer than this.
MAX_PATTERN_TOKENS = max(len(p) for p in (*NULL_PATTERNS, *WITHIN_PATTERNS))


class Lexicon:
    """The lexicon's phrases as a spaCy PhraseMatcher and its windowed patterns as a
    Matcher, both run per sentence, only where a reading is needed (wildcard patterns
    cost more than the whole tokenizer)."""

    LABELS = ("NULL", "COMPARE", "DEFINITION", "WITHIN")

    def __init__(self, nlp: Language) -> None:
        """Args:
            nlp: the spaCy pipeline whose vocabulary the matchers use (the extractor's).
        """
        from spacy.matcher import Matcher, PhraseMatcher

        self.phrases = PhraseMatcher(nlp.vocab, attr="LOWER")
        for label, phrases in (("NULL", NULL_PHRASES), ("COMPARE", COMPARE_PHRASES),
                               ("DEFINITION", DEFINITION_PHRASES)):
            self.phrases.add(label, [nlp.make_doc(p) for p in phrases])
        self.patterns = Matcher(nlp.vocab)
        self.patterns.add("NULL", NULL_PATTERNS)
        self.patterns.add("WITHIN", WITHIN_PATTERNS)
        self.names = {nlp.vocab.strings[name]: name for name in self.LABELS}

    def phrases_in(self, sentence: Doc | Span) -> dict[str, list[tuple[int, int]]]:
        """Phrase matches (doc positions). Run per sentence: no phrase holds a sentence
        end before its last token, so none crosses from one sentence into the next."""
        found: dict[str, list[tuple[int, int]]] = {name: [] for name in self.LABELS}
        doc = sentence.doc
        for match_id, start, end in self.phrases(sentence):
            label = self.names[match_id]
            if label == "COMPARE" and _spans_time(doc, start, end):
                continue
            found[label].append((start, end))
        return found

    def patterns_in(self, span: Span, words: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
        """Windowed matches in a sentence; `words` (the doc's lower-case words) let a
        sentence without any pattern's first word skip the Matcher."""
        found: dict[str, list[tuple[int, int]]] = {name: [] for name in self.LABELS}
        triggers = [i for i in range(span.start, span.end) if words[i] in PATTERN_TRIGGERS]
        if not triggers:
            return found
        # Every match starts at a trigger or the token before it and is at most
        # MAX_PATTERN_TOKENS long, so the Matcher (which builds a Token object per token)
        # runs on that window only: the same matches, in the same order.
        window = span.doc[max(span.start, triggers[0] - 1):
                          min(span.end, triggers[-1] + MAX_PATTERN_TOKENS)]
        for match in self.patterns(window, as_spans=True):
            found[match.label_].append((match.start, match.end))
        return found


def _spans_time(doc: Doc, start: int, end: int) -> bool:
    """'over 6 h', 'over the 12-month follow-up': 'over' with a span of time after it says
    when, not which arm is the reference."""
    if doc[start].lower_ != "over":
        return False
    following = doc[end:min(len(doc), end + TIME_LOOKAHEAD)]
    return bool(following) and (following[0].like_num or any(
        t.lower_ in TIME_WORDS for t in following))

# Prefixes written with a hyphen or without ('intra-operative' / 'intraoperative'); not
# 'non', as often written apart ('non apoptotic').
HYPHEN_PREFIXES = frozenset({"intra", "inter", "peri", "post", "pre", "extra", "trans", "anti",
                             "sub", "re", "co"})

"""The project's own cue lexicon: which words signal an effect's direction, a null finding,
negation, hedging, a comparison's reference arm, or a mechanism.

Forms are lower-case surface words (the blank pipeline has no lemmatiser). Weights in
[0, 1] say how strongly a cue commits the authors; rules turn them into confidence.
"""

from __future__ import annotations


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
    "insignificant", "did not differ", "do not differ", "does not differ", "not differ",
    "no difference", "no differences", "no between-group difference",
    "no between-group differences", "no significant between-group",
    "similar", "comparable", "equivalent", "unchanged", "did not change", "no change",
    "no changes", "was not associated", "were not associated", "not associated",
    "no association", "no effect", "no effects", "no impact", "no benefit",
    "did not reach statistical significance", "did not reach significance",
    "failed to reach", "failed to show", "failed to demonstrate", "did not improve",
    "as effective as", "as safe as", "equally effective", "not different",
    "no evidence of", "neither", "no clear difference", "no relevant difference",
    "no detectable", "no clinically", "remained stable", "n.s.", "ns",
    "not statistically different", "not superior", "non-inferior", "noninferior",
    "did not significantly", "does not appear", "did not appear", "do not support",
    "does not support", "did not support", "not support", "lack of statistical significance",
    "lack of significance", "not statistically meaningful", "not meaningful",
    "in both groups", "in both arms", "in both treatment groups", "in all groups",
    "in each group", "in either group", "in both cases", "for both groups",
    "between-group differences were not", "no longer significant",
)
# Section labels whose sentences describe the question or the design, not a finding.
NON_FINDING_SECTIONS = ("BACKGROUND", "INTRODUCTION", "OBJECTIVE", "AIM", "PURPOSE",
                        "METHOD", "DESIGN", "SETTING", "PARTICIPANT", "INTERVENTION",
                        "MEASURE", "REGISTRATION", "FUNDING", "CONTEXT", "ANIMALS",
                        "STATISTICAL", "TRIAL", "PATIENTS", "SUPPLEMENTARY", "MATERIAL")
FINDING_SECTIONS = ("RESULT", "FINDING", "CONCLUSION", "INTERPRETATION", "SUMMARY",
                    "DISCUSSION", "HIGHLIGHT", "EFFICACY", "SAFETY")
NEGATIONS = frozenset({"not", "no", "neither", "nor", "without", "never", "n't", "cannot",
                       "failed", "fails", "unable", "none", "lack", "lacked", "absence"})
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
                             "rationale", "protocol"})
# "than X", "compared with X": X is the reference arm.
REFERENCE_MARKERS = _forms("than", "versus", "vs", "vs.", "over", "relative", "against")
COMPARE_PHRASES = ("compared with", "compared to", "in comparison with", "in comparison to",
                   "relative to", "as compared with", "as compared to", "when compared with",
                   "when compared to", "in contrast to", "than", "versus", "vs", "vs.",
                   "over", "against")
# Group nouns that stand in for an arm ("in the placebo group").
CONTROL_WORDS = frozenset({"placebo", "control", "controls", "sham", "usual", "standard",
                           "conventional", "comparator", "untreated", "vehicle",
                           "non-users", "nonusers", "unexposed", "no-treatment", "saline",
                           "routine", "waitlist", "wait-list", "observation"})
TREATED_WORDS = frozenset({"intervention", "treatment", "treated", "active", "experimental",
                           "study", "exposed", "users", "supplemented", "supplementation"})
# Cues that say "better"/"worse" rather than "more"/"less": for an adverse outcome
# (pain, mortality) an improvement is a decrease and a worsening an increase.
WORSE_WORDS = _forms("worse", "worsen:,ed,s,ing")
VALENCE_CUES = _forms("improv:e,ed,es,ing,ement,ements", "better", "worse",
                      "worsen:,ed,s,ing", "superior", "inferior", "benefit:,ed,s",
                      "beneficial")
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
)
# Words that introduce a mechanism or mediator.
MECHANISM_PHRASES = ("through", "via", "mediated by", "mediated through", "by way of",
                     "by reducing", "by increasing", "by lowering", "by raising",
                     "by inhibiting", "by enhancing", "mechanism", "pathway")
# Ratio measures have a null value of 1, differences of 0.
RATIO_MEASURES = frozenset({"or", "aor", "rr", "hr", "ahr", "irr", "rate ratio", "odds ratio",
                            "hazard ratio", "risk ratio", "relative risk"})
DIFFERENCE_MEASURES = frozenset({"md", "smd", "wmd", "rd", "mean difference", "difference",
                                 "beta", "β"})
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
# mortality"): the fuzzy outcome match gives each group one stem.
SAME_OUTCOME_WORDS = {w: "death" for w in ("mortality", "mortalities", "died", "die", "dying",
                                           "deaths", "dead", "fatality", "fatalities")}

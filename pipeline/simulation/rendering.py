"""English abstracts for planned studies: results with effect sizes, CIs and P values,
hedged null results, abbreviations defined in parentheses, mechanism sentences and
distractor outcomes. An `Abstract` carries only what PubMed would show; what the study
found stays in its `StudyKey`."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.model import Abstract
from pipeline.simulation.vocabulary import TERMS, Term, find_domain
from pipeline.simulation.world import SimQuery, Study

_VERBS: dict[int, dict[str, tuple[str, ...]]] = {
    -1: {"past": ("reduced", "lowered", "decreased"), "bare": ("reduce", "lower"),
         "3sg": ("reduces", "lowers"), "ing": ("reducing", "lowering")},
    1: {"past": ("increased", "raised"), "bare": ("increase", "raise"),
        "3sg": ("increases", "raises"), "ing": ("increasing", "raising")},
}
_IMPROVES = {"past": "improved", "bare": "improve", "3sg": "improves", "ing": "improving"}
_MEASURES = {"HR": "hazard ratio", "RR": "risk ratio", "OR": "odds ratio",
             "MD": "mean difference", "SMD": "standardised mean difference"}
_ADVERSE = ("nausea", "headache", "dizziness", "diarrhoea", "fatigue", "rash", "constipation",
            "insomnia", "injection-site reactions", "upper respiratory tract infection")
_PLACEHOLDER = re.compile("\x00([^\x00]+)\x00")
_ABBREVIATIONS = tuple(sorted({t.abbreviation for t in TERMS.values() if t.abbreviation}))
_DURATIONS = ("12 weeks", "24 weeks", "6 months", "1 year", "2 years")
_ACRONYMS = ("ASPIRE", "PROTECT", "HORIZON", "CLARITY", "PRIME", "BEACON", "VANTAGE",
             "COMPASS", "ANCHOR", "FOCUS", "SUMMIT", "MERIDIAN", "ORBIT", "KESTREL")


@dataclass(frozen=True, slots=True)
class _Effect:
    measure: str
    estimate: float
    low: float
    high: float
    p: float
    treated: float
    control: float


def _effect(rng: random.Random, change: int, size: int, outcome: Term | None,
            ratio: str | None = None) -> _Effect:
    """Numbers consistent with the reported change: |z| >= 2.05 for a finding,
    0.05 <= |z| <= 1.7 for a null (0.08 < P < 0.97), CI = estimate +- 1.96 SE. The SE
    shrinks with the sample size, but no effect exceeds a plausible size (ratio e, 0.8 SD)."""
    sign = change or rng.choice((1, -1))
    z = sign * (rng.uniform(2.05, 5.0) if change else rng.uniform(0.05, 1.7))
    p = math.erfc(abs(z) / math.sqrt(2.0))
    if outcome is not None and not outcome.continuous:
        control = rng.uniform(0.06, 0.35)
        se = min(math.sqrt(4.0 / (size * control)), 1.0 / max(abs(z), 1.0))
        log_ratio = z * se
        measure = ratio or rng.choice(("HR", "RR", "OR") if outcome.desired < 0 else
                                      ("RR", "OR"))
        return _Effect(measure, math.exp(log_ratio), math.exp(log_ratio - 1.96 * se),
                       math.exp(log_ratio + 1.96 * se), p,
                       100 * min(0.95, control * math.exp(log_ratio)), 100 * control)
    scale = outcome.scale if outcome is not None else 1.0
    se = scale * min(2.0 / math.sqrt(size), 0.8 / max(abs(z), 1.0))
    estimate = z * se
    control = rng.uniform(-0.3, 0.3) * scale
    return _Effect("MD" if outcome is not None else "SMD", estimate, estimate - 1.96 * se,
                   estimate + 1.96 * se, p, control + estimate, control)


def _decimals(scale: float) -> int:
    return 0 if scale >= 100 else 1 if scale >= 5 else 2


class _Writer:
    """Wording for one abstract: a surface form per entity, abbreviations defined at
    first use, one statistics style throughout."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._forms: dict[str, str] = {}
        self._defined: set[str] = set()
        self._style = rng.randrange(3)
        self._minus = "−" if rng.random() < 0.3 else "-"

    def choice(self, options: Sequence[str]) -> str:
        return self.rng.choice(options)

    def form(self, term: Term) -> str:
        """The name this abstract uses for the entity (canonical more often than not)."""
        if term.name not in self._forms:
            use_synonym = term.synonyms and self.rng.random() < 0.35
            self._forms[term.name] = (self.rng.choice(term.synonyms) if use_synonym
                                      else term.name)
        return self._forms[term.name]

    def say(self, term: Term) -> str:
        """The entity in running text. Abbreviated entities become a placeholder that
        `finish` resolves in reading order: "name (ABBR)" the first time, mostly ABBR
        after (sentences are built before one of them is chosen, so this cannot be
        decided here)."""
        form = self.form(term)
        if not term.abbreviation or form != term.name or term.abbreviation in form:
            return form
        return f"\x00{term.name}\x00"

    def finish(self, sentence: str) -> str:
        def mention(match: re.Match[str]) -> str:
            term = TERMS[match[1]]
            if term.name not in self._defined:
                self._defined.add(term.name)
                return f"{term.name} ({term.abbreviation})"
            return str(term.abbreviation) if self.rng.random() < 0.75 else term.name

        return _cap(_PLACEHOLDER.sub(mention, sentence))

    def join(self, sections: Sequence[tuple[str, Sequence[str]]]) -> str:
        """A structured abstract (LABEL: text, one section per line) or one paragraph."""
        if self.rng.random() < 0.6:
            return "\n".join(f"{label}: {' '.join(self.finish(s) for s in body)}"
                             for label, body in sections if body)
        return " ".join(self.finish(s) for _, body in sections for s in body)

    def verb(self, change: int, tense: str, desired: int = 0) -> str:
        options = _VERBS[change][tense]
        if change == desired == 1:
            options = (*options, _IMPROVES[tense])
        return self.rng.choice(options)

    def outcome(self, term: Term) -> str:
        """An outcome as a noun phrase: rates and risks for events, the measure itself
        for continuous outcomes."""
        name = self.say(term)
        if term.continuous:
            return name
        if term.desired > 0:
            return self.choice((f"the rate of {name}", name))
        return self.choice((f"the risk of {name}", f"the incidence of {name}"))

    def number(self, value: float, decimals: int) -> str:
        text = f"{value:.{decimals}f}"
        return text.replace("-", self._minus) if text.startswith("-") else text

    def p_value(self, p: float) -> str:
        if p < 0.001:
            return ("P < 0.001", "P<0.001", "p < .001")[self._style]
        digits = f"{p:.3f}" if p < 0.1 else f"{p:.2f}"
        return (f"P = {digits}", f"P={digits}", f"p = {digits[1:]}")[self._style]

    def stats(self, effect: _Effect, unit: str | None, scale: float = 1.0) -> str:
        """"HR 0.78, 95% CI 0.66 to 0.92; P = 0.004" in one of three house styles."""
        measure = effect.measure
        if measure not in self._defined:
            self._defined.add(measure)
            label = f"{_MEASURES[measure]} [{measure}]" if self._style != 2 else measure
        else:
            label = measure
        decimals = 2 if measure in ("HR", "RR", "OR", "SMD") else _decimals(scale)
        est, low, high = (self.number(v, decimals)
                          for v in (effect.estimate, effect.low, effect.high))
        if unit and measure == "MD":
            suffix = "%" if unit == "%" else f" {unit}"
            est = est + suffix
        ci = f"{low} to {high}" if low.startswith(("-", "−")) or self._style == 0 else (
            f"{low}-{high}" if self._style == 1 else f"{low}–{high}")
        if self._style == 0:
            return f"{label} {est}, 95% CI {ci}; {self.p_value(effect.p)}"
        if self._style == 1:
            return f"{label} {est}; 95% CI {ci}; {self.p_value(effect.p)}"
        return f"{label} = {est}; 95% CI: {ci}; {self.p_value(effect.p)}"


def _cap(sentence: str) -> str:
    """Capitalise a sentence unless it starts with an abbreviation (rTMS, n-3 PUFA)."""
    if sentence[:1].islower() and not sentence.startswith(_ABBREVIATIONS):
        return sentence[0].upper() + sentence[1:]
    return sentence


def _mesh(*names: str, extra: Sequence[str] = ()) -> tuple[str, ...]:
    headings = ["Humans", *(n[0].upper() + n[1:] for n in names), *extra]
    return tuple(dict.fromkeys(headings))


def _effect_sentence(w: _Writer, intervention: Term, comparator: str, outcome: Term,
                     change: int, size: int, cohort: bool) -> str:
    """The primary result, worded the many ways abstracts word it."""
    effect = _effect(w.rng, change, size, outcome, "HR" if cohort else None)
    stats = w.stats(effect, outcome.unit, outcome.scale)
    i, o = w.say(intervention), w.outcome(outcome)
    rates = ""
    if not outcome.continuous:
        rates = f"{effect.treated:.1f}% vs {effect.control:.1f}%; "
    if cohort:
        if change == 0:
            return w.choice((f"{i} was not associated with {w.say(outcome)} (adjusted {stats}).",
                             f"After adjustment for confounders, there was no significant "
                             f"association between {i} and {w.say(outcome)} ({stats})."))
        return w.choice((f"{i} was associated with {_association(w, outcome, change)} "
                         f"(adjusted {stats}).",
                         f"Compared with patients not receiving it, those receiving {i} had "
                         f"{_association(w, outcome, change)} ({stats})."))
    c = comparator
    if change == 0:
        trend = "lower" if effect.estimate < (1.0 if effect.measure in ("HR", "RR", "OR")
                                              else 0.0) else "higher"
        return w.choice((
            f"There was no significant difference in {o} between the {i} and {c} groups "
            f"({rates}{stats}).",
            f"{i} did not significantly {w.verb(outcome.desired, 'bare')} {o} compared with "
            f"{c} ({rates}{stats}).",
            f"{w.say(outcome)} was similar in the two groups ({rates}{stats}).",
            f"Although {w.say(outcome)} was numerically {trend} with {i}, the difference "
            f"did not reach statistical significance ({stats}).",
            f"We found no evidence that {i} affected {o} ({stats}).",
        ))
    comparative = "lower" if change < 0 else "higher"
    noun = "reduction" if change < 0 else "increase"
    options = [
        f"{i} {w.verb(change, 'past', outcome.desired)} {o} compared with {c} "
        f"({rates}{stats}).",
        f"Compared with {c}, {i} significantly {w.verb(change, 'past', outcome.desired)} "
        f"{o} ({stats}).",
        f"Treatment with {i} resulted in a significant {noun} in {w.say(outcome)} "
        f"({stats}).",
        f"{w.say(outcome)} was significantly {comparative} in the {i} group than in the "
        f"{c} group ({rates}{stats}).",
    ]
    if outcome.continuous:
        unit = "%" if outcome.unit == "%" else f" {outcome.unit}"
        digits = _decimals(outcome.scale)
        options.append(
            f"{w.say(outcome)} changed by {w.number(effect.treated, digits)}{unit} with {i} "
            f"and by {w.number(effect.control, digits)}{unit} with {c} ({stats}), a "
            f"significant {noun}.")
    return w.choice(options)


def _association(w: _Writer, outcome: Term, change: int) -> str:
    """"a lower risk of X" for events, "higher X" for measurements."""
    comparative = "lower" if change < 0 else "higher"
    if outcome.continuous:
        return f"{comparative} {w.say(outcome)}"
    return f"a {comparative} risk of {w.say(outcome)}"


def _conclusion(w: _Writer, intervention: Term, comparator: str, outcome: Term, change: int,
                population: str, cohort: bool) -> str:
    i, o = w.say(intervention), w.outcome(outcome)
    if cohort:
        if change == 0:
            return f"In {population}, {i} was not associated with {w.say(outcome)}."
        return w.choice((f"In {population}, {i} was associated with "
                         f"{_association(w, outcome, change)}.",
                         f"{i} may be associated with {_association(w, outcome, change)} in "
                         f"{population}; randomised trials are needed to confirm this."))
    if change == 0:
        bare = w.verb(outcome.desired, "bare")
        return w.choice((
            f"{i} did not {bare} {o} in {population}.",
            f"In {population}, {i} had no significant effect on {w.say(outcome)}, although "
            f"a modest benefit cannot be excluded.",
            f"These results do not support the use of {i} to {bare} {o} in {population}; "
            f"larger trials are needed.",
            f"{i} and {comparator} resulted in similar "
            f"{w.say(outcome) if outcome.continuous else 'rates of ' + w.say(outcome)}.",
        ))
    if change == outcome.desired:
        return w.choice((
            f"In {population}, {i} {w.verb(change, 'past', outcome.desired)} {o} compared "
            f"with {comparator}.",
            f"These findings suggest that {i} {w.verb(change, '3sg', outcome.desired)} {o} "
            f"in {population}.",
            f"{i} is an effective option for {w.verb(change, 'ing', outcome.desired)} "
            f"{w.say(outcome)} in {population}.",
        ))
    return w.choice((
        f"{i} {w.verb(change, 'past')} {o} in {population}, and its use warrants caution.",
        f"These data indicate that {i} may {w.verb(change, 'bare')} {o}; clinicians should "
        f"weigh this risk.",
    ))


def render_study(study: Study, query: SimQuery, rng: random.Random) -> Abstract:
    """A planned study of the query's question: a narrative review, or a trial or cohort."""
    if study.key.kind == "review":
        return render_review(study, query, rng)
    return render_direct(study, query, rng)


def render_direct(study: Study, query: SimQuery, rng: random.Random,
                  avoid: str = "") -> Abstract:
    """A trial or cohort on the query's question, with a mechanism sentence sometimes.
    `avoid` names an outcome the secondary results must not mention (an off-target study
    of another outcome must say nothing about the query's)."""
    w = _Writer(rng)
    key, intervention, outcome = study.key, query.intervention, query.outcome
    comparator, population = query.comparator, query.population
    change = key.reported or 0
    cohort = key.kind == "cohort"
    name, out = w.form(intervention), w.form(outcome)
    if cohort:
        risk = out if outcome.continuous else f"risk of {out}"
        title = _cap(w.choice((f"{name} and {risk} in {population}: a prospective cohort study",
                               f"Association of {name} with {out} among {population}")))
    else:
        design = w.choice(("a randomised controlled trial", "a randomized clinical trial",
                           "a multicentre randomised trial"))
        titles = [f"Effect of {name} on {out} in {population}: {design}",
                  f"{name} versus {comparator} in {population}: {design}",
                  f"{name} for {population} ({w.choice(_ACRONYMS)}): {design}"]
        if change == outcome.desired:
            titles.append(f"{name} {w.verb(change, '3sg', outcome.desired)} {out} in "
                          f"{population}: {design}")
        elif change == 0:
            titles.append(f"{name} does not {w.verb(outcome.desired, 'bare')} {out} in "
                          f"{population}: {design}")
        title = _cap(w.choice(titles))
    background = [w.choice((
        f"{w.say(outcome)} remains an important clinical problem in {population}.",
        f"Whether {w.say(intervention)} {w.verb(outcome.desired, '3sg')} {w.outcome(outcome)} "
        f"in {population} is uncertain.",
        f"Previous studies of {w.say(intervention)} have reported conflicting effects on "
        f"{w.say(outcome)}."))]
    if query.mechanism is not None and rng.random() < 0.3:
        background.append(f"{w.say(intervention)} is thought to act partly through "
                          f"{w.say(query.mechanism.term)}, but its clinical benefit is "
                          f"not established.")
    background.append(w.choice((
        f"We assessed the effect of {w.say(intervention)} on {w.say(outcome)}.",
        f"This study aimed to determine whether {w.say(intervention)} "
        f"{w.verb(outcome.desired, '3sg')} {w.outcome(outcome)}.")))
    others = [o for o in find_domain(query.domain).outcomes if o.name not in (outcome.name, avoid)]
    distractors = rng.sample(others, 2)
    if cohort:
        methods = [f"We analysed {key.sample_size:,} {population} enrolled in a prospective "
                   f"cohort and followed for a median of {rng.randint(2, 9)} years.",
                   f"Cox models adjusted for age, sex and comorbidity estimated the "
                   f"association between {w.say(intervention)} and {w.say(outcome)}."]
    else:
        blinded = "double-blind, " if comparator == "placebo" else ""
        control = ", placebo-controlled" if comparator == "placebo" else ""
        centres = "multicentre, " if key.sample_size >= 1000 else ""
        methods = [f"In this {centres}{blinded}randomised{control} trial, we assigned "
                   f"{key.sample_size:,} {population} to {w.say(intervention)} or "
                   f"{comparator} {_duration(population, rng)}.",
                   f"The primary outcome was {w.say(outcome)}; secondary outcomes included "
                   f"{w.say(distractors[0])} and {w.say(distractors[1])}."]
    results = [_effect_sentence(w, intervention, comparator, outcome, change,
                                key.sample_size, cohort)]
    if study.mechanism is not None:
        mediator, seen = study.mechanism
        results.append(_mechanism_sentence(w, intervention, mediator, seen,
                                           key.sample_size))
    if not cohort:
        results.append(_secondary_sentence(w, intervention, distractors, key.sample_size))
        results.append(w.choice((
            f"Adverse events were reported in {rng.randint(8, 40)}% and "
            f"{rng.randint(8, 40)}% of participants, respectively.",
            f"The most frequent adverse events were {w.choice(_ADVERSE[:5])} and "
            f"{w.choice(_ADVERSE[5:])}.",
            "No serious adverse events were attributed to the study treatment.")))
    conclusions = [_conclusion(w, intervention, comparator, outcome, change, population,
                               cohort)]
    if not cohort and rng.random() < 0.3:
        conclusions.append(
            f"Trial registration: ClinicalTrials.gov NCT0{rng.randint(1000000, 6999999)}.")
    labels = rng.choice((("BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS"),
                       ("OBJECTIVE", "METHODS", "RESULTS", "CONCLUSION"),
                       ("INTRODUCTION", "METHODS", "FINDINGS", "INTERPRETATION")))
    text = w.join(list(zip(labels, (background, methods, results, conclusions), strict=True)))
    types = (("Journal Article", "Observational Study") if cohort else
             ("Journal Article", "Randomized Controlled Trial",
              *(("Multicenter Study",) if key.sample_size >= 1000 else ())))
    extra = ("Prospective Studies",) if cohort else ("Treatment Outcome",)
    return Abstract(pmid=key.pmid, title=title + ".", text=text, year=study.year,
                    publication_types=types,
                    mesh=_mesh(intervention.name, outcome.name, extra=extra))


def _mechanism_sentence(w: _Writer, intervention: Term, mediator: Term, seen: int,
                        size: int) -> str:
    effect = _effect(w.rng, seen, size, None)
    stats = w.stats(effect, None)
    i, v = w.say(intervention), w.say(mediator)
    if seen == 0:
        return w.choice((f"{v} did not change significantly with {i} ({stats}).",
                         f"{i} had no measurable effect on {v} ({stats})."))
    return w.choice((f"{i} also {w.verb(seen, 'past')} {v} ({stats}).",
                     f"In exploratory analyses, {v} {'fell' if seen < 0 else 'rose'} "
                     f"significantly in the {i} group ({stats})."))


def _secondary_sentence(w: _Writer, intervention: Term, distractors: Sequence[Term],
                        size: int) -> str:
    """Results for other outcomes: a distractor the extractor must not take for the query."""
    first, second = distractors
    draw = w.rng.random()
    if draw < 0.6:
        return w.choice((f"Secondary outcomes, including {w.say(first)} and "
                         f"{w.say(second)}, did not differ between groups.",
                         f"No significant between-group differences were observed for "
                         f"{w.say(first)} or {w.say(second)}."))
    change = first.desired if draw < 0.9 else -first.desired
    effect = _effect(w.rng, change, size, first)
    return (f"{w.say(intervention)} {w.verb(change, 'past', first.desired)} "
            f"{w.outcome(first)} ({w.stats(effect, first.unit, first.scale)}).")


def render_review(study: Study, query: SimQuery, rng: random.Random) -> Abstract:
    """A narrative review: relevant words, no result to extract."""
    w = _Writer(rng)
    intervention, outcome = query.intervention, query.outcome
    title = _cap(w.choice((f"{w.form(intervention)} in {query.population}: a narrative review",
                           f"The role of {w.form(intervention)} in {query.population}: current "
                           f"evidence and future directions")))
    mechanism = (f", including effects on {w.say(query.mechanism.term)}"
                 if query.mechanism is not None else "")
    sentences = [
        f"{w.say(intervention)} has been studied in {query.population} for more than a "
        f"decade.",
        f"This review summarises its proposed mechanisms{mechanism}, and the clinical "
        f"outcomes reported so far, such as {w.say(outcome)}.",
        f"We searched MEDLINE and Embase for studies published up to {study.year - 1}.",
        "The available studies differ in design, dose and duration, which limits direct "
        "comparison.",
        f"Adequately powered trials are needed to define the place of {w.say(intervention)} "
        f"in clinical practice.",
    ]
    return Abstract(pmid=study.key.pmid, title=title + ".",
                    text=" ".join(w.finish(s) for s in sentences), year=study.year,
                    publication_types=("Journal Article", "Review"),
                    mesh=_mesh(intervention.name, outcome.name))


def render_edge(study: Study, head: Term, tail: Term, comparator: str, population: str,
                 rng: random.Random) -> Abstract:
    """A mechanistic trial (intervention -> mediator) or a cohort (mediator -> outcome)."""
    w = _Writer(rng)
    key, change = study.key, study.key.reported or 0
    h, t = w.form(head), w.form(tail)
    if key.kind == "mechanism":
        title = _cap(f"Effect of {h} on {t} in {population}: a randomised pilot trial.")
        background = f"{w.say(tail)} has been implicated in disease progression in {population}."
        methods = (f"We randomly assigned {key.sample_size} {population} to {w.say(head)} or "
                   f"{comparator} for {rng.randint(4, 16)} weeks and measured {w.say(tail)} "
                   f"at baseline and at the end of treatment.")
        effect = _effect(rng, change, key.sample_size, None)
        if change:
            result = (f"{w.say(head)} {w.verb(change, 'past')} {w.say(tail)} compared with "
                      f"{comparator} ({w.stats(effect, None)}).")
            conclusion = (f"{w.say(head)} {w.verb(change, '3sg')} {w.say(tail)}, which may "
                          f"contribute to its clinical effects.")
        else:
            result = (f"{w.say(tail)} did not differ significantly between groups "
                      f"({w.stats(effect, None)}).")
            conclusion = f"{w.say(head)} had no measurable effect on {w.say(tail)}."
        types = ("Journal Article", "Randomized Controlled Trial")
    else:
        title = _cap(w.choice((f"{h} and {t} in {population}: a prospective cohort study.",
                               f"Association between {h} and {t} in {population}.")))
        background = f"The relation between {w.say(head)} and {w.say(tail)} is unclear."
        methods = (f"We measured {w.say(head)} in {key.sample_size:,} {population} and "
                   f"followed them for a median of {rng.randint(2, 8)} years.")
        effect = _effect(rng, change, key.sample_size, tail, "HR")
        stats = w.stats(effect, tail.unit, tail.scale)
        if change == 0:
            result = (f"{w.say(head)} was not associated with {w.say(tail)} after adjustment "
                      f"for potential confounders ({stats}).")
            conclusion = (f"{w.say(head)} does not appear to predict {w.say(tail)} in "
                          f"{population}.")
        else:
            result = (f"Higher {w.say(head)} was associated with "
                      f"{_association(w, tail, change)} ({stats}, per standard deviation).")
            conclusion = (f"Higher {w.say(head)} predicts {_association(w, tail, change)} in "
                          f"{population}.")
        types = ("Journal Article", "Observational Study")
    sections = [("BACKGROUND", [background]), ("METHODS", [methods]), ("RESULTS", [result]),
                ("CONCLUSIONS", [conclusion])]
    return Abstract(pmid=key.pmid, title=title, text=w.join(sections), year=study.year,
                    publication_types=types, mesh=_mesh(head.name, tail.name))


def _duration(population: str, rng: random.Random) -> str:
    """How long the arms were followed; pregnancy and neonatal trials end at birth or
    discharge rather than after a fixed time."""
    choice = rng.choice(_DURATIONS)
    if "pregnan" in population or "preterm birth" in population:
        return rng.choice(("from 16 weeks' gestation until delivery",
                           "from enrolment until delivery"))
    if "infants" in population:
        return "until discharge from the neonatal unit"
    return f"for {choice}"

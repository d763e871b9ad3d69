"""Trim-and-fill meta-analysis baseline over the retrieved abstracts (SPEC §5, paper Table
"tab:main"): read each abstract's effect estimate and 95% CI, pool them, correct the pool
for funnel-plot asymmetry, and read a label off the corrected confidence interval.

Pure: text and numbers in, numbers and labels out (no store, no network).

Choices, all documented where they are made:
- pooling is inverse-variance fixed effect (FE) and DerSimonian-Laird random effects (DL),
  a few lines of numpy, so no statistics dependency is added;
- trim-and-fill (Duval & Tweedie 2000) uses the L0 estimator and trims around the FE
  estimate, as metafor's `trimfill` does for an FE model; the side is metafor's rule (the
  sign of the slope of y on sqrt(v)); the reported pool (before and after filling) is DL,
  because retrieved studies of one question are rarely homogeneous;
- ratios (HR, OR, RR, IRR, PR) are pooled together on the log scale; differences only with
  the same measure (MD with MD, SMD with SMD), and `meta_label` uses the largest such group.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from pipeline.model import Label

Z_95 = 1.959964
MAX_ITERATIONS = 100  # metafor's default; L0 normally settles in a handful
TIE_TOLERANCE = 1e-9  # a study this close to the centre (relative) is on neither side
RATIO_MEASURES = frozenset({"HR", "OR", "RR", "IRR", "PR"})

# Measure names, longest first so "mean difference" wins over "difference". Spelled-out
# names match in any case; abbreviations only in capitals (an "or" is not an odds ratio),
# with the "a" of "adjusted" (aHR, aOR) allowed; plurals too ("hazard ratios were 0.91").
# A weighted mean difference is read as MD. "PR" alone is not read as a prevalence ratio
# (progesterone receptor, partial response).
_MEASURE_NAMES: tuple[tuple[str, str], ...] = (
    (r"standardi[sz]ed mean difference", "SMD"),
    (r"weighted mean difference", "MD"),
    (r"mean difference", "MD"),
    (r"(?:absolute )?risk difference", "RD"),
    (r"(?:incidence |incident )?rate ratio", "IRR"),
    (r"hazard ratio", "HR"),
    (r"odds ratio", "OR"),
    (r"risk ratio|relative risk", "RR"),
    (r"prevalence ratio", "PR"),
    (r"difference", "difference"),
)
_ABBREVIATIONS = {"SMD": "SMD", "WMD": "MD", "MD": "MD", "ARD": "RD", "RD": "RD",
                  "IRR": "IRR", "HR": "HR", "OR": "OR", "RR": "RR"}
_MEASURE = re.compile(
    "|".join(rf"(?i:\b(?:{pattern})s?\b)" for pattern, _ in _MEASURE_NAMES)
    + r"|\ba?(?:" + "|".join(_ABBREVIATIONS) + r")s?\b"
)
# A number: "-", "−" (U+2212) or "–" (an en dash, common in real abstracts) for minus, an
# optional "+", "." or the Lancet's "·" for the decimal point, which may lead (".80").
_NUMBER = r"[-−–+]?(?:\d+(?:[.·]\d+)?|[.·]\d+)"
_CI = re.compile(r"95\s?%\s?(?:CI|confidence interval)", re.IGNORECASE)
_RANGE = rf"(?P<low>{_NUMBER})\s*%?\s*(?:to|[-–—,])\s*(?P<high>{_NUMBER})"
# "HR 0.78, 95% CI 0.66 to 0.92": after "95% CI" come "[CI]", ":", "=", ",", brackets,
# then "low to high", "low-high", "low–high" or "low, high"; a "%" may follow the lower
# bound. The estimate is the last number before "95% CI", with an optional unit ("g",
# "points", "mmol/L", "%", "percentage points") and punctuation between them.
_BOUNDS = re.compile(rf"(?:\s*[\[(]CIs?[\])])?[\s:=,\[\]()]*{_RANGE}")
_ESTIMATE = re.compile(
    rf"(?<![\w.·])(?P<estimate>{_NUMBER})(?:\s*%|\s+[^\W\d][\w/]*(?:\s[^\W\d][\w/]*)?)?"
    r"\s*[,;:]?\s*[(\[]?\s*$"
)
# "HR (95% CI) 0.78 (0.66-0.92)": the measure right before "95% CI", the estimate after it.
_ESTIMATE_THEN_BOUNDS = re.compile(
    rf"[\s:,\])]*(?P<estimate>{_NUMBER})\s*[\[(]\s*{_RANGE}\s*[\])]"
)
_MEASURE_THEN_CI = re.compile(r"[\s,:(\[]*$")
_LOOKBACK = 250
_MAX_LABEL_GAP = 100  # "risk ratio (RR) of being retained at 12 months ... was 1.21"
_SENTENCE_BREAK = re.compile(r";|\.\s+[A-Z]")


@dataclass(frozen=True, slots=True)
class Effect:
    """One study's reported effect estimate with its 95% CI, on the reported scale."""

    measure: str
    estimate: float
    low: float
    high: float

    @property
    def ratio(self) -> bool:
        """Ratios have their null at 1 and are analysed on the log scale."""
        return self.measure in RATIO_MEASURES

    @property
    def scale(self) -> str:
        """Effects with the same scale can be pooled: all log ratios together (HR, OR and
        RR approximate one another for rare outcomes), differences only with their own
        measure (an MD in grams and an SMD are not on one scale)."""
        return "log ratio" if self.ratio else self.measure

    def to_study(self) -> tuple[float, float]:
        """(y, v): the effect on the analysis scale and its variance, from the CI width."""
        transform = math.log if self.ratio else float
        y = transform(self.estimate)
        se = (transform(self.high) - transform(self.low)) / (2 * Z_95)
        return y, se * se


def parse_effect(text: str) -> Effect | None:
    """The first well-formed effect estimate with a 95% CI in `text`, or None. An interval
    counts only if a named measure (hazard ratio, MD ...) comes right before it in the same
    clause: prevalences and efficacies with CIs are not comparative effects."""
    for ci in _CI.finditer(text):
        prefix = text[max(0, ci.start() - _LOOKBACK):ci.start()]
        for reading in (_estimate_then_ci(text, prefix, ci.end()),
                        _ci_then_estimate(text, prefix, ci.end())):
            effect = _checked_effect(*reading) if reading else None
            if effect is not None:
                return effect
    return None


Reading = tuple[str, str, str, str]  # measure as written, estimate, low, high


def _estimate_then_ci(text: str, prefix: str, ci_end: int) -> Reading | None:
    """"hazard ratio, 0.80; 95% CI, 0.70 to 0.91" and the simulated house styles."""
    bounds = _BOUNDS.match(text, ci_end)
    estimate = _ESTIMATE.search(prefix)
    if bounds is None or estimate is None:
        return None
    before = prefix[:estimate.start()]
    names = list(_MEASURE.finditer(before))
    if not names:
        return None
    gap = before[names[-1].end():]
    if len(gap) > _MAX_LABEL_GAP or _SENTENCE_BREAK.search(gap) or _CI.search(gap):
        return None
    return names[-1][0], estimate["estimate"], bounds["low"], bounds["high"]


def _ci_then_estimate(text: str, prefix: str, ci_end: int) -> Reading | None:
    """"mean difference [95% CI] -0.4 [-0.5 to -0.3]", "OR (95% CI) 1.85 (0.91 to 3.77)"."""
    numbers = _ESTIMATE_THEN_BOUNDS.match(text, ci_end)
    names = list(_MEASURE.finditer(prefix))
    if numbers is None or not names or not _MEASURE_THEN_CI.fullmatch(
            prefix, names[-1].end()):
        return None
    return names[-1][0], numbers["estimate"], numbers["low"], numbers["high"]


def _checked_effect(name: str, estimate: str, low: str, high: str) -> Effect | None:
    effect = Effect(_canonical_measure(name), _to_float(estimate), _to_float(low),
                    _to_float(high))
    return effect if _plausible(effect, _rounding_unit((estimate, low, high))) else None


def _canonical_measure(name: str) -> str:
    for pattern, measure in _MEASURE_NAMES:
        if re.fullmatch(rf"(?:{pattern})s?", name, re.IGNORECASE):
            return measure
    return _ABBREVIATIONS[name.removeprefix("a").removesuffix("s")]


def _to_float(number: str) -> float:
    return float(number.replace("−", "-").replace("–", "-").replace("·", "."))


def _rounding_unit(numbers: Sequence[str]) -> float:
    """One unit in the last printed digit: how far rounding can move a value past its
    rounded bound (each of the two moves by at most half a unit)."""
    decimals = max(len(n.partition(".")[2] or n.partition("·")[2]) for n in numbers)
    return 10.0 ** -decimals


def _plausible(effect: Effect, tolerance: float) -> bool:
    """Reject what cannot be a CI around its estimate: an empty or inverted interval, an
    estimate outside it beyond rounding, or a ratio that is not positive."""
    if effect.low >= effect.high:
        return False
    if not effect.low - tolerance <= effect.estimate <= effect.high + tolerance:
        return False
    return not effect.ratio or min(effect.estimate, effect.low) > 0


@dataclass(frozen=True, slots=True)
class Pooled:
    """A pooled estimate with its standard error, 95% CI and between-study variance."""

    estimate: float
    se: float
    ci_low: float
    ci_high: float
    tau2: float


def _pooled(y: np.ndarray, w: np.ndarray, tau2: float) -> Pooled:
    estimate = float(np.sum(w * y) / np.sum(w))
    se = float(1.0 / math.sqrt(np.sum(w)))
    return Pooled(estimate, se, estimate - Z_95 * se, estimate + Z_95 * se, tau2)


def fixed_effect(y: ArrayLike, v: ArrayLike) -> Pooled:
    """Inverse-variance fixed-effect (common-effect) pool."""
    ys, vs = _studies(y, v, minimum=1)
    return _pooled(ys, 1.0 / vs, 0.0)


def dersimonian_laird(y: ArrayLike, v: ArrayLike) -> Pooled:
    """Random-effects pool with the DerSimonian-Laird moment estimate of tau^2."""
    ys, vs = _studies(y, v, minimum=2)
    w = 1.0 / vs
    centre = np.sum(w * ys) / np.sum(w)
    q = float(np.sum(w * (ys - centre) ** 2))
    c = float(np.sum(w) - np.sum(w * w) / np.sum(w))
    tau2 = max(0.0, (q - (len(ys) - 1)) / c)
    return _pooled(ys, 1.0 / (vs + tau2), tau2)


def _studies(y: ArrayLike, v: ArrayLike, minimum: int
             ) -> tuple[np.ndarray, np.ndarray]:
    ys, vs = np.asarray(y, dtype=float), np.asarray(v, dtype=float)
    if ys.shape != vs.shape or ys.ndim != 1:
        raise ValueError("y and v must be two sequences of the same length")
    if len(ys) < minimum:
        raise ValueError(f"need at least {minimum} studies, got {len(ys)}")
    if not (np.all(np.isfinite(ys)) and np.all(np.isfinite(vs)) and np.all(vs > 0)):
        raise ValueError("effects must be finite and variances finite and positive")
    return ys, vs


Side = Literal["left", "right"]


class NoConvergence(RuntimeError):
    """The L0 estimate of missing studies kept changing (metafor stops with an error)."""


@dataclass(frozen=True, slots=True)
class TrimFill:
    """Result of trim-and-fill: how many studies were imputed, on which side of the funnel,
    the imputed (y, v) pairs, the FE centre they mirror, and the DL pool before and after."""

    k0: int
    side: Side
    filled: tuple[tuple[float, float], ...]
    centre: float
    estimate: float
    ci_low: float
    ci_high: float
    estimate_before: float


def missing_side(y: ArrayLike, v: ArrayLike) -> Side:
    """Where studies are missing, by metafor's rule: regress y on sqrt(v) with weights 1/v
    (Egger's test as a meta-regression). A negative slope (imprecise studies report smaller
    effects) means imprecise studies with large effects are missing, on the right. Equal
    variances give no slope and default to the left, as in metafor."""
    ys, vs = _studies(y, v, minimum=2)
    w, x = 1.0 / vs, np.sqrt(vs)
    x_centred = x - np.sum(w * x) / np.sum(w)
    spread = float(np.sum(w * x_centred ** 2))
    if spread <= 1e-12 * float(np.sum(w * x * x)):
        return "left"
    slope = float(np.sum(w * x_centred * ys)) / spread
    return "right" if slope < 0 else "left"


def trim_and_fill(y: ArrayLike, v: ArrayLike, side: Side | None = None
                  ) -> TrimFill:
    """Duval & Tweedie (2000) trim-and-fill, L0 estimator, as metafor's `trimfill`: flip
    the data so that the missing studies are on the left (`side`, by default
    `missing_side`); repeat (estimate the FE centre on the k - k0 smallest effects, rank
    |y - centre| over all k, L0 = (4 S_r - k(k+1)) / (2k - 1) with S_r the rank sum of the
    studies above the centre, round, floor at 0) until k0 repeats; then mirror the k0
    largest effects around the centre, keeping their variances. Needs 3 studies: with 2,
    L0 can trim all of them."""
    ys, vs = _studies(y, v, minimum=3)
    side = side or missing_side(ys, vs)
    flip = -1.0 if side == "right" else 1.0
    order = np.argsort(flip * ys, kind="stable")
    sorted_y, sorted_v = flip * ys[order], vs[order]
    k = len(ys)
    k0, centre = 0, 0.0
    for _ in range(MAX_ITERATIONS):
        previous = k0
        centre = fixed_effect(sorted_y[:k - k0], sorted_v[:k - k0]).estimate
        centred = sorted_y - centre
        # identical effects: rounding puts the weighted mean a hair off them, and their
        # sides (hence k0) would flip from one iteration to the next
        centred[np.isclose(centred, 0.0, atol=TIE_TOLERANCE * (1.0 + abs(centre)))] = 0.0
        ranks = np.empty(k)
        ranks[np.argsort(np.abs(centred), kind="stable")] = np.arange(1, k + 1)
        rank_sum = float(np.sum(ranks[centred > 0]))
        k0 = max(0, round((4 * rank_sum - k * (k + 1)) / (2 * k - 1)))
        if k0 == previous:
            break
    else:
        raise NoConvergence(f"trim and fill did not converge in {MAX_ITERATIONS} iterations")
    filled_y = flip * (2 * centre - sorted_y[k - k0:])
    filled_v = sorted_v[k - k0:]
    before = dersimonian_laird(ys, vs)
    after = dersimonian_laird(np.concatenate([ys, filled_y]), np.concatenate([vs, filled_v]))
    return TrimFill(k0=k0, side=side,
                    filled=tuple(zip(filled_y.tolist(), filled_v.tolist(), strict=True)),
                    centre=flip * centre, estimate=after.estimate, ci_low=after.ci_low,
                    ci_high=after.ci_high, estimate_before=before.estimate)


def meta_label(effects: Sequence[Effect], direction: int, min_studies: int = 3
               ) -> Label | None:
    """The meta-analysis baseline's answer, or None ("not applicable") with fewer than
    `min_studies` poolable effects or when trim-and-fill does not converge. Pools the
    largest group of effects on one scale (ties: the group seen first), fills, and reads
    the filled DL interval: it excludes the null (0 on the analysis scale, so ratio 1) ->
    Beneficial if the pooled effect points in `direction` (+1: a higher outcome is
    desired, -1: lower), else Harmful; it includes the null -> NoEffect."""
    if direction not in (1, -1):
        raise ValueError(f"direction must be +1 or -1, got {direction!r}")
    if min_studies < 3:
        raise ValueError(f"trim-and-fill needs at least 3 studies, got {min_studies=}")
    groups = Counter(effect.scale for effect in effects)
    if not groups:
        return None
    scale, size = groups.most_common(1)[0]
    if size < min_studies:
        return None
    y, v = zip(*(effect.to_study() for effect in effects if effect.scale == scale),
               strict=True)
    try:
        result = trim_and_fill(y, v)
    except NoConvergence:
        return None  # metafor gives no result either
    if result.ci_low <= 0.0 <= result.ci_high:
        return Label.NO_EFFECT
    return Label.BENEFICIAL if np.sign(result.estimate) == direction else Label.HARMFUL

"""The trim-and-fill meta-analysis baseline: effect parsing, pooling, trim-and-fill, labels."""

from __future__ import annotations

import math

import pytest

from pipeline.evaluation.meta import (
    Z_95,
    Effect,
    dersimonian_laird,
    fixed_effect,
    meta_label,
    missing_side,
    parse_effect,
    trim_and_fill,
)
from pipeline.model import Label

# --- parse_effect -----------------------------------------------------------------------

PARSED = [
    # the simulated house styles (pipeline/simulation/rendering.py `_Writer.stats`)
    ("(mean difference [MD] -3 g; 95% CI -40 to 34; P=0.86)", Effect("MD", -3, -40, 34)),
    ("(MD = -6 g; 95% CI: -41 to 28; p = .71)", Effect("MD", -6, -41, 28)),
    ("(MD = −6 g; 95% CI: −41 to 28; p = .71)", Effect("MD", -6, -41, 28)),  # U+2212
    ("(risk ratio [RR] 0.37; 95% CI 0.24-0.55; P<0.001)", Effect("RR", 0.37, 0.24, 0.55)),
    ("(MD = 1.60 points; 95% CI: 0.91–2.29; p < .001)", Effect("MD", 1.60, 0.91, 2.29)),
    ("(standardised mean difference [SMD] -0.38; 95% CI -0.69 to -0.06; P=0.020)",
     Effect("SMD", -0.38, -0.69, -0.06)),
    ("was associated with a lower risk of death (adjusted HR 0.78, 95% CI 0.66 to 0.92; "
     "P = 0.004).", Effect("HR", 0.78, 0.66, 0.92)),
    ("(12.1% vs 15.3%; OR = 0.76; 95% CI: 0.61–0.95; p = .016)",
     Effect("OR", 0.76, 0.61, 0.95)),
    ("(MD -0.20%, 95% CI -0.41 to 0.01; P = 0.06)", Effect("MD", -0.20, -0.41, 0.01)),
    # real-abstract forms
    ("(hazard ratio, 0.80; 95% confidence interval [CI], 0.70 to 0.91; P<0.001)",
     Effect("HR", 0.80, 0.70, 0.91)),
    ("OR 1.2 (95% CI 0.9-1.6)", Effect("OR", 1.2, 0.9, 1.6)),
    ("RR=0.85, 95%CI 0.72–1.01", Effect("RR", 0.85, 0.72, 1.01)),
    ("(relative risk [RR] 0·80 [95% CI] 0·65-0·98)", Effect("RR", 0.80, 0.65, 0.98)),
    ("(IRR: 0.39, 95% CI: 0.2-0.80; P = .01)", Effect("IRR", 0.39, 0.2, 0.80)),
    ("The adjusted risk ratio (RR) of being retained at 12 months with HIV-1 RNA <50 "
     "copies/ml was 1.21 (95% CI: 1.04, 1.38; p = 0.015)", Effect("RR", 1.21, 1.04, 1.38)),
    ("(difference, -0.7 percentage points; 95% confidence interval [CI], -1.5 to 0.1)",
     Effect("difference", -0.7, -1.5, 0.1)),
    ("(weighted mean difference 2.5 mmHg, 95% CI 1.0 to 4.0)", Effect("MD", 2.5, 1.0, 4.0)),
    ("(adjusted OR 1.21, 95% CI .80–1.83, p = 0.36)", Effect("OR", 1.21, 0.80, 1.83)),
    ("(difference –5.97, 95% CI –8.49 to –3.44, P<.001)",  # en dash as minus
     Effect("difference", -5.97, -8.49, -3.44)),
    ("Hazard ratios (HRs) for death were 0.915 (95% confidence interval [CI] 0.625–1.339)",
     Effect("HR", 0.915, 0.625, 1.339)),
    ("HR (95% CI): 0.80 (0.70–0.91)", Effect("HR", 0.80, 0.70, 0.91)),
    ("(mean difference [95% CI] −0.4 [−0.5 to −0.3])", Effect("MD", -0.4, -0.5, -0.3)),
]


@pytest.mark.parametrize(("text", "expected"), PARSED)
def test_parse_effect_reads_each_format(text: str, expected: Effect) -> None:
    assert parse_effect(text) == expected


@pytest.mark.parametrize("text", [
    "",
    "Zinc shortened the common cold.",
    "OR 1.2, p = 0.03",  # no CI
    "Malaria prevalence was 5.6% (95% CI: 4.2-7.5).",  # a CI but no comparative measure
    "Vaccine efficacy was 65% (95% CI 52-74; p<0.0001).",
    "OR 2.0 (95% CI 0.9-1.6)",  # estimate outside the interval
    "MD 0.5 (95% CI 0.9 to 0.1)",  # low > high
    "HR 0.8 (95% CI 0.8-0.8)",  # empty interval
    "RR -0.5 (95% CI -0.9 to -0.1)",  # a ratio is positive
    "HR 0 (95% CI 0-1)",
    "The OR was reported. Prevalence was 5.6% (95% CI: 4.2-7.5).",  # measure in another sentence
])
def test_parse_effect_rejects_garbage(text: str) -> None:
    assert parse_effect(text) is None


def test_parse_effect_takes_the_first_well_formed_effect() -> None:
    text = ("Prevalence was 5.6% (95% CI 4.2-7.5). Mortality was lower (OR 0.7, 95% CI "
            "0.5-0.9) and so was stroke (HR 0.6, 95% CI 0.4-0.8).")
    assert parse_effect(text) == Effect("OR", 0.7, 0.5, 0.9)


@pytest.mark.parametrize(("measure", "ratio"), [
    ("HR", True), ("OR", True), ("RR", True), ("IRR", True), ("PR", True),
    ("MD", False), ("SMD", False), ("RD", False), ("difference", False),
])
def test_ratio_flag(measure: str, ratio: bool) -> None:
    assert Effect(measure, 1.0, 0.5, 2.0).ratio is ratio


def test_to_study_uses_the_log_scale_for_ratios() -> None:
    y, v = Effect("RR", 0.5, 0.25, 1.0).to_study()
    assert y == pytest.approx(math.log(0.5))
    assert v == pytest.approx((math.log(4) / (2 * 1.959964)) ** 2)
    y, v = Effect("MD", -3, -40, 34).to_study()
    assert (y, v) == pytest.approx((-3.0, (74 / (2 * 1.959964)) ** 2))


# --- pooling ----------------------------------------------------------------------------

def test_fixed_effect_and_dersimonian_laird_by_hand() -> None:
    y, v = [0.0, 1.0, 3.0], [1.0, 1.0, 0.5]
    # FE: weights 1, 1, 2; estimate (0 + 1 + 6) / 4 = 1.75; se = 1 / sqrt(4) = 0.5
    fe = fixed_effect(y, v)
    assert (fe.estimate, fe.se, fe.tau2) == pytest.approx((1.75, 0.5, 0.0))
    assert (fe.ci_low, fe.ci_high) == pytest.approx((1.75 - Z_95 * 0.5, 1.75 + Z_95 * 0.5))
    # DL: Q = 1(1.75)^2 + 1(0.75)^2 + 2(1.25)^2 = 6.75; C = 4 - (1 + 1 + 4) / 4 = 2.5;
    # tau^2 = (6.75 - 2) / 2.5 = 1.9; weights 1/2.9, 1/2.9, 1/2.4
    dl = dersimonian_laird(y, v)
    weights = (1 / 2.9) * 2 + 1 / 2.4
    estimate = (1 / 2.9 + 3 / 2.4) / weights
    assert dl.tau2 == pytest.approx(1.9)
    assert dl.estimate == pytest.approx(estimate)
    assert dl.se == pytest.approx(1 / math.sqrt(weights))


def test_dersimonian_laird_floors_tau2_at_zero() -> None:
    dl = dersimonian_laird([1.0, 1.0, 1.0], [0.1, 0.2, 0.3])
    assert (dl.estimate, dl.tau2) == pytest.approx((1.0, 0.0))


# BCG vaccine trials (dat.bcg, Colditz et al. 1994): treated TB+, TB-, control TB+, TB-.
BCG = [(4, 119, 11, 128), (6, 300, 29, 274), (3, 228, 11, 209), (62, 13536, 248, 12619),
       (33, 5036, 47, 5761), (180, 1361, 372, 1079), (8, 2537, 10, 619),
       (505, 87886, 499, 87892), (29, 7470, 45, 7232), (17, 1699, 65, 1600),
       (186, 50448, 141, 27197), (5, 2493, 3, 2338), (27, 16886, 29, 17825)]


def test_pooling_matches_published_bcg_results() -> None:
    """Log risk ratios of the BCG trials; the expected values are metafor's, checked there
    against Stata's metan (wviechtb/metafor, tests/testthat/
    test_misc_metan_vs_rma.uni_with_dat.bcg.r): FE -0.4303 [-0.5097, -0.3509], DL -0.7141
    [-1.0644, -0.3638] with tau^2 = 0.3088."""
    y = [math.log(a / (a + b)) - math.log(c / (c + d)) for a, b, c, d in BCG]
    v = [1 / a - 1 / (a + b) + 1 / c - 1 / (c + d) for a, b, c, d in BCG]
    fe, dl = fixed_effect(y, v), dersimonian_laird(y, v)
    assert (fe.estimate, fe.ci_low, fe.ci_high) == pytest.approx(
        (-0.4303, -0.5097, -0.3509), abs=5e-5)
    assert (dl.estimate, dl.ci_low, dl.ci_high, dl.tau2) == pytest.approx(
        (-0.7141, -1.0644, -0.3638, 0.3088), abs=5e-5)


@pytest.mark.parametrize(("y", "v"), [
    ([1.0], [0.1, 0.2]),
    ([1.0, 2.0], [0.1, 0.0]),
    ([1.0, math.nan], [0.1, 0.1]),
])
def test_pooling_rejects_bad_input(y: list[float], v: list[float]) -> None:
    with pytest.raises(ValueError):
        dersimonian_laird(y, v)


# --- trim and fill ----------------------------------------------------------------------

def test_symmetric_funnel_imputes_nothing() -> None:
    y, v = [-1.0, -0.5, 0.0, 0.5, 1.0], [0.4, 0.1, 0.05, 0.1, 0.4]
    # centre 0; |y| ranks 0 -> 1, 0.5s -> 2, 3, 1s -> 4, 5; S_r = 3 + 5 = 8;
    # L0 = (4 * 8 - 30) / 9 = 0.22 -> 0
    result = trim_and_fill(y, v)
    assert result.k0 == 0 and result.filled == ()
    assert result.estimate == pytest.approx(result.estimate_before)
    assert result.estimate == pytest.approx(0.0, abs=1e-12)


ASYMMETRIC = [0.45, 0.5, 0.55, 1.1, 1.6, 1.8]  # equal variances, so the FE centre is a mean


def test_asymmetric_funnel_l0_by_hand() -> None:
    # k = 6, k(k+1) = 42, 2k - 1 = 11.
    # Round 1, centre = mean of all 6 = 1.0; y - centre = -.55 -.5 -.45 +.1 +.6 +.8;
    #   ranks of |y - centre|: .1 -> 1(+), .45 -> 2, .5 -> 3, .55 -> 4, .6 -> 5(+), .8 -> 6(+)
    #   S_r = 1 + 5 + 6 = 12; L0 = (48 - 42) / 11 = 0.55 -> k0 = 1.
    # Round 2, centre = mean of the 5 smallest = 4.2 / 5 = 0.84;
    #   y - centre = -.39 -.34 -.29 +.26 +.76 +.96;
    #   ranks: .26 -> 1(+), .29 -> 2, .34 -> 3, .39 -> 4, .76 -> 5(+), .96 -> 6(+)
    #   S_r = 12 again -> k0 = 1: converged. Filled: 1.8 mirrored around 0.84 = -0.12.
    v = [0.04] * 6
    result = trim_and_fill(ASYMMETRIC, v)
    assert (result.k0, result.side) == (1, "left")
    assert result.centre == pytest.approx(0.84)
    assert len(result.filled) == 1
    assert result.filled[0] == pytest.approx((2 * 0.84 - 1.8, 0.04))
    assert result.estimate_before == pytest.approx(1.0)
    after = dersimonian_laird([*ASYMMETRIC, -0.12], [*v, 0.04])
    assert (result.estimate, result.ci_low, result.ci_high) == pytest.approx(
        (after.estimate, after.ci_low, after.ci_high))


def test_right_side_fill_mirrors_the_left() -> None:
    result = trim_and_fill([-y for y in ASYMMETRIC], [0.04] * 6, side="right")
    assert (result.k0, result.side) == (1, "right")
    assert result.centre == pytest.approx(-0.84)
    assert len(result.filled) == 1
    assert result.filled[0] == pytest.approx((0.12, 0.04))


def test_missing_side_follows_the_egger_slope() -> None:
    v = [0.01, 0.04, 0.09]
    # small (imprecise) studies report larger effects: the missing ones are on the left
    assert missing_side([0.1, 0.5, 0.9], v) == "left"
    assert missing_side([-0.1, -0.5, -0.9], v) == "right"
    assert missing_side([0.1, 0.5, 0.9], [0.04] * 3) == "left"  # no slope: metafor's default


def test_trim_and_fill_chooses_the_side_itself() -> None:
    y, v = [0.1, 0.15, 0.2, 0.6, 0.9, 1.2], [0.01, 0.01, 0.02, 0.09, 0.16, 0.25]
    assert trim_and_fill(y, v).side == "left"
    assert trim_and_fill([-x for x in y], v).side == "right"


def test_identical_effects_fill_nothing() -> None:
    # three studies with the same effect (a real recording of the calibrated world): the
    # funnel is symmetric, k0 = 0 and the pool is the effect itself; before the tie
    # tolerance, rounding of the weighted mean flipped their sides and L0 never settled
    y, v = [-0.9942522733438669] * 3, [0.07854756474741902, 0.05567743265647737,
                                       0.08308006010394016]
    result = trim_and_fill(y, v)
    assert result.k0 == 0 and result.filled == ()
    assert result.estimate == pytest.approx(y[0])


def test_no_convergence_is_not_applicable(monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.evaluation.meta as meta

    def never(*_: object) -> None:
        raise meta.NoConvergence("did not converge")

    monkeypatch.setattr(meta, "trim_and_fill", never)
    assert meta.meta_label(NULL_MEAN, 1) is None  # metafor gives no result either


def test_trim_and_fill_needs_three_studies() -> None:
    with pytest.raises(ValueError):
        trim_and_fill([0.1, 0.2], [0.01, 0.01])


# --- meta_label -------------------------------------------------------------------------

LOWER_RISK = [Effect("RR", 0.5, 0.4, 0.625)] * 3  # log RR < 0, CI excludes 1
HIGHER_MEAN = [Effect("MD", 2.0, 1.0, 3.0)] * 3
NULL_MEAN = [Effect("MD", 0.1, -1.0, 1.2), Effect("MD", -0.2, -1.1, 0.7),
             Effect("MD", 0.0, -0.9, 0.9)]


@pytest.mark.parametrize(("effects", "direction", "label"), [
    (LOWER_RISK, -1, Label.BENEFICIAL),  # lower outcome desired, risk ratio below 1
    (LOWER_RISK, +1, Label.HARMFUL),
    (HIGHER_MEAN, +1, Label.BENEFICIAL),
    (HIGHER_MEAN, -1, Label.HARMFUL),
    (NULL_MEAN, +1, Label.NO_EFFECT),
    (NULL_MEAN, -1, Label.NO_EFFECT),
    ([Effect("OR", 1.1, 0.8, 1.5)] * 3, -1, Label.NO_EFFECT),
])
def test_meta_label_maps_the_filled_interval(effects: list[Effect], direction: int,
                                             label: Label) -> None:
    assert meta_label(effects, direction) == label


def test_meta_label_is_not_applicable_with_too_few_studies() -> None:
    assert meta_label([], 1) is None
    assert meta_label(HIGHER_MEAN[:2], 1) is None
    assert meta_label(HIGHER_MEAN, 1, min_studies=4) is None


def test_meta_label_pools_only_one_scale() -> None:
    # three MDs and two ratios: the MDs are pooled, the ratios left out
    mixed = [*HIGHER_MEAN, Effect("HR", 3.0, 2.0, 4.0), Effect("OR", 3.0, 2.0, 4.0)]
    assert meta_label(mixed, -1) == Label.HARMFUL
    # HR, OR and RR share the log scale; MD and SMD do not share one
    assert meta_label([Effect("HR", 0.5, 0.4, 0.625), Effect("OR", 0.5, 0.4, 0.625),
                       Effect("RR", 0.5, 0.4, 0.625)], -1) == Label.BENEFICIAL
    assert meta_label([*HIGHER_MEAN[:2], Effect("SMD", 0.5, 0.2, 0.8)], 1) is None


def test_meta_label_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        meta_label(HIGHER_MEAN, 0)
    with pytest.raises(ValueError):  # trim-and-fill needs three studies
        meta_label(HIGHER_MEAN, 1, min_studies=2)

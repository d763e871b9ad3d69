"""The math of SPEC §2-4 on plain objects: exact formulas and the paper's properties."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.graph.store import strongest_per_edge_pmid
from pipeline.inference.belief import noisy_or
from pipeline.inference.energy import energy, pair_polarity_entropy
from pipeline.inference.paths import route_strength
from pipeline.inference.posterior import (
    EPS0,
    Posterior,
    kl_divergence,
    label_posterior,
    uniform_posterior,
)
from pipeline.model import (
    CausalPath,
    EdgeBelief,
    Label,
    Polarity,
    compose_polarity,
    label_set,
    make_evidence,
)

confidence = st.floats(min_value=0.0, max_value=1.0, exclude_max=True)
positive_belief = st.floats(min_value=1e-6, max_value=1.0, exclude_max=True)
polarity = st.sampled_from([-1, 0, 1])


def path(polarities: list[int], beliefs: list[float]) -> CausalPath:
    nodes = tuple(f"n{i}" for i in range(len(polarities) + 1))
    return CausalPath(nodes, tuple(polarities), tuple(beliefs), route_strength(beliefs))


paths_strategy = st.lists(
    st.one_of(
        st.tuples(polarity, positive_belief).map(lambda t: path([t[0]], [t[1]])),
        st.tuples(polarity, polarity, positive_belief, positive_belief).map(
            lambda t: path([t[0], t[1]], [t[2], t[3]])),
    ),
    max_size=8,
)


# --- exact formulas -------------------------------------------------------------------

def test_noisy_or_matches_the_paper_update_rule() -> None:
    # s_new = 1 - (1 - s_old)(1 - s_in), applied twice
    assert noisy_or([0.5, 0.2, 0.1]) == pytest.approx(1 - 0.5 * 0.8 * 0.9, abs=1e-15)
    assert noisy_or([]) == 0.0


def test_one_pmid_counts_once_per_edge_at_its_highest_confidence() -> None:
    rows = [make_evidence("a", "b", 1, s, pmid) for pmid, s in
            [("1", 0.4), ("2", 0.3), ("1", 0.7), ("1", 0.2)]]
    rows.append(make_evidence("a", "b", -1, 0.9, "1"))  # another polarity: another edge
    kept = [(r.pmid, int(r.polarity), r.confidence) for r in strongest_per_edge_pmid(rows)]
    assert kept == [("1", 1, 0.7), ("2", 1, 0.3), ("1", -1, 0.9)]


def test_route_strength_of_the_papers_zinc_example() -> None:
    # one hop w = 0.8 -> 0.8 e^-1 = 0.29; two hops 0.7, 0.6 -> 0.7 * 0.6 * e^-2 = 0.057
    assert route_strength([0.8]) == pytest.approx(0.8 * math.exp(-1), abs=1e-15)
    assert round(route_strength([0.8]), 2) == 0.29
    assert route_strength([0.7, 0.6]) == pytest.approx(0.42 * math.exp(-2), abs=1e-15)
    assert round(route_strength([0.7, 0.6]), 3) == 0.057


def test_polarity_composition() -> None:
    assert compose_polarity([1, -1]) == -1
    assert compose_polarity([-1, -1]) == 1
    assert compose_polarity([1, 0]) == 0
    assert compose_polarity([-1]) == -1


def test_posterior_by_hand() -> None:
    # a direct decreasing edge (w = 0.8) and a two-hop null path (0.7, 0.6), direction
    # decrease: Str1 = 0.8 e^-1, Str2 = 0.42 e^-2, q(pi) ∝ Str^1.5, smoothing eps = 0.05.
    paths = [path([-1], [0.8]), path([1, 0], [0.7, 0.6])]
    s1, s2 = 0.8 * math.exp(-1), 0.42 * math.exp(-2)
    w1, w2 = s1**1.5 / (s1**1.5 + s2**1.5), s2**1.5 / (s1**1.5 + s2**1.5)
    q = label_posterior(paths, Polarity.DECREASES)
    assert q.labels == (Label.BENEFICIAL, Label.NO_EFFECT, Label.HARMFUL)
    assert q.probs[0] == pytest.approx(0.95 * w1 + 0.05 / 3, abs=1e-12)
    assert q.probs[1] == pytest.approx(0.95 * w2 + 0.05 / 3, abs=1e-12)
    assert q.probs[2] == pytest.approx(0.05 / 3, abs=1e-12)
    assert q.label is Label.BENEFICIAL


def test_without_direction_labels_are_increases_noeffect_decreases() -> None:
    q = label_posterior([path([1, -1], [0.9, 0.9])], None)
    assert q.label is Label.DECREASES


def test_only_the_top_five_paths_count() -> None:
    strong_null = [path([0], [0.9])] * 5
    weak_increase = path([1], [0.1])
    assert label_posterior([*strong_null, weak_increase], None).probs == \
        label_posterior(strong_null, None).probs


def test_no_path_is_noevidence_not_noeffect() -> None:
    q = label_posterior([], Polarity.INCREASES)
    assert q.label is Label.NO_EVIDENCE
    assert not q.informed
    assert q == uniform_posterior(Polarity.INCREASES)
    null = label_posterior([path([0], [0.5])], Polarity.INCREASES)
    assert null.label is Label.NO_EFFECT and null.informed


def test_energy_by_hand() -> None:
    # one direct edge (+1, w = 0.2) whose pair also has a -1 edge with w = 0.6
    q = label_posterior([path([1], [0.2])], None)
    explanation = [EdgeBelief("n0", "n1", 1, 0.2)]
    pairs = {("n0", "n1"): {1: 0.2, -1: 0.6}}
    terms = energy(q, explanation, pairs)
    h = -(0.25 * math.log(0.25) + 0.75 * math.log(0.75))
    assert terms.log_posterior == pytest.approx(-math.log(0.95 + 0.05 / 3), abs=1e-12)
    assert terms.uncertainty == pytest.approx(h, abs=1e-12)
    assert terms.violation == pytest.approx(0.1, abs=1e-12)
    assert terms.total == pytest.approx(terms.log_posterior + 0.1 * h + 0.1 * 0.1, abs=1e-12)


def test_kl_by_hand() -> None:
    p, q = (0.5, 0.25, 0.25), (1 / 3, 1 / 3, 1 / 3)
    expected = 0.5 * math.log(1.5) + 2 * 0.25 * math.log(0.75)
    assert kl_divergence(p, q) == pytest.approx(expected, abs=1e-15)


# --- properties (Lemma 1, Proposition 1's premise, KL) --------------------------------

@given(st.lists(confidence, max_size=50))
def test_lemma1_belief_in_unit_interval(confidences: list[float]) -> None:
    assert 0.0 <= noisy_or(confidences) < 1.0


@given(st.lists(positive_belief, min_size=1, max_size=2))
def test_lemma1_strength_in_zero_one(beliefs: list[float]) -> None:
    assert 0.0 < route_strength(beliefs) <= 1.0


@given(st.lists(confidence, max_size=30), st.randoms(use_true_random=False))
def test_noisy_or_order_independent(confidences: list[float], rng: random.Random) -> None:
    shuffled = confidences[:]
    rng.shuffle(shuffled)
    assert noisy_or(shuffled) == pytest.approx(noisy_or(confidences), abs=1e-12)


@given(paths_strategy, st.sampled_from([None, Polarity.INCREASES, Polarity.DECREASES]))
def test_posterior_is_a_distribution_with_every_label_above_eps0(
        paths: list[CausalPath], direction: Polarity | None) -> None:
    paths = sorted(paths, key=lambda p: -p.strength)
    q = label_posterior(paths, direction)
    assert sum(q.probs) == pytest.approx(1.0, abs=1e-12)
    assert min(q.probs) >= EPS0 - 1e-15


@given(paths_strategy, paths_strategy)
def test_kl_nonnegative_and_zero_only_for_equal(a: list[CausalPath],
                                                b: list[CausalPath]) -> None:
    p = label_posterior(sorted(a, key=lambda x: -x.strength), None).probs
    q = label_posterior(sorted(b, key=lambda x: -x.strength), None).probs
    divergence = kl_divergence(p, q)
    assert divergence >= 0.0
    assert kl_divergence(p, p) == 0.0
    if max(abs(x - y) for x, y in zip(p, q, strict=True)) > 1e-6:
        assert divergence > 0.0


@given(st.dictionaries(polarity, confidence, min_size=1))
def test_pair_entropy_bounded(beliefs: dict[int, float]) -> None:
    assert 0.0 <= pair_polarity_entropy(beliefs) <= math.log(3) + 1e-12


@pytest.mark.parametrize("probs, direction, expected", [
    ((0.4, 0.2, 0.4), Polarity.DECREASES, Label.BENEFICIAL),
    ((0.25, 0.375, 0.375), Polarity.DECREASES, Label.NO_EFFECT),
    ((0.5, 0.5, 0.0), None, Label.INCREASES),
    ((1 / 3, 1 / 3, 1 / 3), None, Label.INCREASES),
])
def test_posterior_ties_go_to_the_first_label(probs: tuple[float, float, float],
                                              direction: Polarity | None,
                                              expected: Label) -> None:
    assert Posterior(probs, label_set(direction), informed=True).label is expected

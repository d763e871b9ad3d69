"""The 20 step features phi_t of SPEC §4, in six fixed groups (names, order and version
are part of the PRM's contract: a model trained on one version refuses another).

Version dacg-features-2. Definitions (t = this step; "direct studies" = the distinct PMIDs
read so far that yielded a triple E1 -> E2, each with the polarity of its most confident
such triple (the first one read on ties); a study's *side* is its polarity's posterior
slot: favourable (agrees with the desired direction, or +1 without one), null, opposite;
the label's side is the slot of argmax q_t; empty quantities are 0):

path structure (6)
  direct_paths        number of enumerated direct paths E1 -> E2
  two_hop_paths       number of enumerated two-hop paths E1 -> v -> E2
  max_strength        strength of the strongest path
  top_strength_gap    Str(top 1) - Str(top 2) (Str(top 1) with one path)
  direct_mass         share of the posterior's path weight Str^beta on direct paths
  label_side          side of the current label: +1 favourable, 0 null, -1 opposite
                      (0 when uninformed)
conflict (2)
  posterior_entropy   H(q_t) in nats
  label_support_share share of direct studies whose side is the label's side
coverage (4)
  abstracts_read      abstracts read so far
  direct_studies      number of direct studies
  favourable_studies  direct studies on the favourable side
  null_studies        direct studies on the null side
saturation (2)
  new_evidence_share  evidence rows written this step / all evidence rows
  label_persistence   share of the steps so far (this one included) with this step's label
global (4)
  nodes, edges        of the run's graph
  mean_log_size       mean over direct studies of ln(max(n, 10)), n the sample size the
                      abstract states (pipeline.extraction.study; 0 when it states none)
  small_study_excess  with m >= 2 direct studies sorted by sample size, largest first
                      (reading order on ties): favourable share among the last
                      m - floor(m/2) minus favourable share among the first floor(m/2)
                      (publication bias inflates small studies' favourable reports)
energy (2)
  energy              E_t
  energy_change       E_t - E_{t-1}
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.inference.posterior import BETA, TOP_K, Posterior, entropy
from pipeline.model import CausalPath, EdgeBelief, GraphStats

FEATURE_VERSION = "dacg-features-2"

FEATURE_GROUPS: dict[str, tuple[str, ...]] = {
    "path_structure": ("direct_paths", "two_hop_paths", "max_strength", "top_strength_gap",
                       "direct_mass", "label_side"),
    "conflict": ("posterior_entropy", "label_support_share"),
    "coverage": ("abstracts_read", "direct_studies", "favourable_studies", "null_studies"),
    "saturation": ("new_evidence_share", "label_persistence"),
    "global": ("nodes", "edges", "mean_log_size", "small_study_excess"),
    "energy": ("energy", "energy_change"),
}
FEATURE_NAMES: tuple[str, ...] = tuple(n for group in FEATURE_GROUPS.values() for n in group)

FAVOURABLE, NULL, OPPOSITE = 0, 1, 2  # sides = posterior slots (pipeline.model.label_index)
MIN_LOG_SIZE = 10  # sample sizes below this (or unstated, 0) count as 10 in mean_log_size


@dataclass(frozen=True, slots=True)
class DirectStudy:
    """A PMID that yielded a triple E1 -> E2: its side (FAVOURABLE, NULL or OPPOSITE) and
    the sample size its abstract states (0 when it states none)."""

    pmid: str
    side: int
    sample_size: int = 0


@dataclass(frozen=True)
class StepState:
    """What the controller knows after a step, as plain values.

    paths: every enumerated E1 -> E2 path, strongest first (the posterior uses the top 5);
    explanation: the edges those top paths use, with their PMIDs; relevant_abstracts: how
    many abstracts read so far yielded a triple touching E1 or E2; new_*: what this step's
    write added; previous_energy: E_{t-1} (E_0 is the energy of the uniform prior);
    direct: the direct studies so far in reading order; steps / label_steps: steps so far
    and how many of them (this one included) had this step's label."""

    paths: Sequence[CausalPath]
    posterior: Posterior
    explanation: Sequence[EdgeBelief]
    stats: GraphStats
    abstracts_read: int
    relevant_abstracts: int
    new_edges: int
    new_evidence: int
    energy: float
    previous_energy: float
    direct: Sequence[DirectStudy] = ()
    steps: int = 1
    label_steps: int = 1


def _share(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def label_slot(posterior: Posterior) -> int | None:
    """The side of argmax q (None when uninformed)."""
    return posterior.labels.index(posterior.label) if posterior.informed else None


def small_study_excess(direct: Sequence[DirectStudy]) -> float:
    """Favourable share of the smaller half minus that of the larger half (see module)."""
    if len(direct) < 2:
        return 0.0
    ordered = sorted(direct, key=lambda s: -s.sample_size)  # stable: reading order on ties
    half = len(ordered) // 2
    large, small = ordered[:half], ordered[half:]
    return (sum(s.side == FAVOURABLE for s in small) / len(small)
            - sum(s.side == FAVOURABLE for s in large) / len(large))


def feature_vector(state: StepState, top_k: int = TOP_K,
                   beta: float = BETA) -> dict[str, float]:
    """phi_t by name, in FEATURE_NAMES order. Empty quantities are 0 (no path: strengths 0,
    gap 0, direct mass 0; no direct study: shares and mean size 0), so a feature is always
    defined."""
    top = [p for p in state.paths[:top_k] if p.strength > 0.0]
    strengths = [p.strength for p in top]
    weights = [s**beta for s in strengths]
    direct_weight = sum(w for w, p in zip(weights, top, strict=True) if p.hops == 1)
    gap = strengths[0] - strengths[1] if len(strengths) > 1 else (
        strengths[0] if strengths else 0.0)
    slot = label_slot(state.posterior)
    direct = state.direct
    sides = [s.side for s in direct]
    log_sizes = [math.log(max(s.sample_size, MIN_LOG_SIZE)) for s in direct]
    stats = state.stats
    values = {
        "direct_paths": float(sum(1 for p in state.paths if p.hops == 1)),
        "two_hop_paths": float(sum(1 for p in state.paths if p.hops == 2)),
        "max_strength": strengths[0] if strengths else 0.0,
        "top_strength_gap": gap,
        "direct_mass": _share(direct_weight, sum(weights)),
        "label_side": {None: 0.0, FAVOURABLE: 1.0, NULL: 0.0, OPPOSITE: -1.0}[slot],
        "posterior_entropy": entropy(state.posterior.probs),
        "label_support_share": 0.0 if slot is None else _share(sides.count(slot),
                                                                len(sides)),
        "abstracts_read": float(state.abstracts_read),
        "direct_studies": float(len(sides)),
        "favourable_studies": float(sides.count(FAVOURABLE)),
        "null_studies": float(sides.count(NULL)),
        "new_evidence_share": _share(state.new_evidence, stats.evidence),
        "label_persistence": _share(state.label_steps, state.steps),
        "nodes": float(stats.nodes),
        "edges": float(stats.edges),
        "mean_log_size": _share(sum(log_sizes), len(log_sizes)),
        "small_study_excess": small_study_excess(direct),
        "energy": state.energy,
        "energy_change": state.energy - state.previous_energy,
    }
    return {name: values[name] for name in FEATURE_NAMES}

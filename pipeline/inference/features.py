"""The 20 step features phi_t of SPEC §4, in six fixed groups (names, order and version
are part of the PRM's contract: a model trained on one version refuses another)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.inference.posterior import BETA, TOP_K, Posterior, entropy
from pipeline.model import CausalPath, EdgeBelief, GraphStats

FEATURE_VERSION = "dacg-features-1"

FEATURE_GROUPS: dict[str, tuple[str, ...]] = {
    "path_structure": ("direct_paths", "two_hop_paths", "max_strength", "mean_top_strength",
                       "top_strength_gap", "direct_mass"),
    "conflict": ("posterior_entropy", "conflicting_pair_share"),
    "coverage": ("abstracts_read", "query_path_evidence", "query_path_pmids",
                 "relevant_abstract_share"),
    "saturation": ("new_edge_share", "new_evidence_share"),
    "global": ("nodes", "edges", "density", "mean_belief"),
    "energy": ("energy", "energy_change"),
}
FEATURE_NAMES: tuple[str, ...] = tuple(n for group in FEATURE_GROUPS.values() for n in group)


@dataclass(frozen=True)
class StepState:
    """What the controller knows after a step, as plain values.

    paths: every enumerated E1 -> E2 path, strongest first (the posterior uses the top 5);
    explanation: the edges those top paths use, with their PMIDs; relevant_abstracts: how
    many abstracts read so far yielded a triple touching E1 or E2; new_*: what this step's
    write added; previous_energy: E_{t-1} (E_0 is the energy of the uniform prior)."""

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


def _share(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def feature_vector(state: StepState, top_k: int = TOP_K,
                   beta: float = BETA) -> dict[str, float]:
    """phi_t by name, in FEATURE_NAMES order. Empty quantities are 0 (no path: strengths 0,
    gap 0, direct mass 0), so a feature is always defined."""
    top = [p for p in state.paths[:top_k] if p.strength > 0.0]
    strengths = [p.strength for p in top]
    weights = [s**beta for s in strengths]
    direct_weight = sum(w for w, p in zip(weights, top, strict=True) if p.hops == 1)
    gap = strengths[0] - strengths[1] if len(strengths) > 1 else (
        strengths[0] if strengths else 0.0)
    pmids_on_paths = [pmid for edge in state.explanation for pmid in edge.pmids]
    stats = state.stats
    values = {
        "direct_paths": float(sum(1 for p in state.paths if p.hops == 1)),
        "two_hop_paths": float(sum(1 for p in state.paths if p.hops == 2)),
        "max_strength": strengths[0] if strengths else 0.0,
        "mean_top_strength": sum(strengths) / len(strengths) if strengths else 0.0,
        "top_strength_gap": gap,
        "direct_mass": _share(direct_weight, sum(weights)),
        "posterior_entropy": entropy(state.posterior.probs),
        "conflicting_pair_share": _share(stats.conflicting_pairs, stats.entity_pairs),
        "abstracts_read": float(state.abstracts_read),
        "query_path_evidence": float(len(pmids_on_paths)),
        "query_path_pmids": float(len(set(pmids_on_paths))),
        "relevant_abstract_share": _share(state.relevant_abstracts, state.abstracts_read),
        "new_edge_share": _share(state.new_edges, stats.edges),
        "new_evidence_share": _share(state.new_evidence, stats.evidence),
        "nodes": float(stats.nodes),
        "edges": float(stats.edges),
        "density": stats.density,
        "mean_belief": stats.mean_belief,
        "energy": state.energy,
        "energy_change": state.energy - state.previous_energy,
    }
    return {name: values[name] for name in FEATURE_NAMES}

"""A fast stand-in for record + replay, used only to fit the calibrated world.

Recording runs the real extractor over every abstract (about a minute for the benchmark);
a fit needs hundreds of worlds. The surrogate keeps everything but the reading: the
studies are planned by the world's own code, and each study's direct reading (polarity
and confidence, or nothing) is drawn from a reading model measured once on a real
recording (what the extractor read from studies that reported +, 0 or -). Beliefs, paths
and the posterior are then the pipeline's own functions (noisy-OR, route strength,
Boltzmann posterior) over the direct paths; two-hop paths are left out, which is why the
fitted world is re-measured by a real recording before anything is reported.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.inference.belief import noisy_or
from pipeline.inference.paths import path_order_key, route_strength
from pipeline.inference.posterior import Posterior, label_posterior
from pipeline.model import CausalPath, Polarity
from pipeline.simulation.world import Study, StudyKey
from pipeline.trajectory import StepRecord

READ_KINDS = ("trial", "cohort", "secondary")  # studies whose text reports the query's result
Reading = tuple[int, float] | None
ReadingModel = dict[int, list[tuple[Reading, int]]]  # reported -> (reading, count)


def measure_reading_model(runs: Mapping[str, Sequence[StepRecord]],
                          keys: Mapping[str, StudyKey],
                          ends: Mapping[str, tuple[str, str]]) -> ReadingModel:
    """What the extractor read from each direct study of a recording: its most confident
    triple between the query's two entities, or nothing, grouped by what the study
    reported. `ends` maps a query to its (E1 id, E2 id)."""
    counts: dict[int, Counter[Reading]] = {1: Counter(), 0: Counter(), -1: Counter()}
    for query_id, steps in runs.items():
        head, tail = ends[query_id]
        best: dict[str, tuple[float, int]] = {}
        for step in steps:
            for item in step.new_evidence:
                if (item["head"], item["tail"]) == (head, tail):
                    s = float(item["confidence"])
                    if item["pmid"] not in best or s > best[item["pmid"]][0]:
                        best[item["pmid"]] = (s, int(item["polarity"]))
        for step in steps:
            for pmid in step.retrieved_pmids:
                key = keys.get(pmid)
                if key is None or key.topic != query_id or key.kind not in READ_KINDS:
                    continue
                assert key.reported is not None
                found = best.get(pmid)
                counts[key.reported][None if found is None
                                     else (found[1], round(found[0], 3))] += 1
    return {r: sorted(c.items(), key=lambda kv: (kv[0] is None, kv[0] or (0, 0.0)))
            for r, c in counts.items()}


def reading_model_json(model: ReadingModel) -> dict[str, list[list[Any]]]:
    return {str(r): [[None if k is None else k[0], None if k is None else k[1], n]
                     for k, n in rows] for r, rows in model.items()}


def reading_model_from_json(data: Mapping[str, list[list[Any]]]) -> ReadingModel:
    return {int(r): [(None if p is None else (int(p), float(s)), int(n)) for p, s, n in rows]
            for r, rows in data.items()}


def _read(model: ReadingModel, key: StudyKey, rng: random.Random) -> Reading:
    if key.kind not in READ_KINDS or key.reported is None:
        return None
    rows = model[key.reported]
    return rng.choices([r for r, _ in rows], weights=[n for _, n in rows])[0]


def direct_posterior(beliefs: Mapping[int, float], direction: Polarity,
                     ends: tuple[str, str]) -> Posterior:
    """The posterior over the direct paths E1 -> E2, one per polarity with evidence."""
    paths = [CausalPath(ends, (p,), (w,), route_strength([w])) for p, w in beliefs.items()]
    paths.sort(key=lambda p: path_order_key(p.strength, p.nodes, p.polarities))
    return label_posterior(paths, direction)


def trajectory(query_id: str, studies: Sequence[Study], direction: Polarity,
               model: ReadingModel, seed: int, budget: int = 20) -> tuple[list[StepRecord], int]:
    """Surrogate steps (one study per step, until the budget or the literature ends) and
    how many direct studies were read (>= 3 makes trim-and-fill applicable)."""
    rng = random.Random(f"{seed}:surrogate:{query_id}")
    ends = ("E1", "E2")
    evidence: dict[int, dict[str, float]] = {}
    steps: list[StepRecord] = []
    read = 0
    for t, study in enumerate(studies[:budget], 1):
        found = _read(model, study.key, rng)
        if found is not None:
            polarity, s = found
            edge = evidence.setdefault(polarity, {})
            edge[study.key.pmid] = max(s, edge.get(study.key.pmid, 0.0))
            read += 1
        beliefs = {p: noisy_or(e.values()) for p, e in evidence.items()}
        posterior = direct_posterior(beliefs, direction, ends)
        steps.append(StepRecord(
            query_id=query_id, step=t, retrieved_pmids=[study.key.pmid], new_evidence=[],
            graph={}, top_paths=[], posterior=posterior.as_dict(),
            informed=posterior.informed, label=posterior.label.value, kl=0.0, energy={},
            features={}, feature_version=""))
    return steps, read

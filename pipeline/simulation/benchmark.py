"""The paper-scale simulated benchmark: 969 queries split 656 / 140 / 173 by review.

Every split has the test split's label mix (70 Beneficial, 70 NoEffect, 33 Harmful out of
173), and no intervention-outcome pair occurs twice anywhere, so none is shared across
splits. Written files are byte-identical for a seed; the manifest carries their SHA-256.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pipeline.jsonl import read_jsonl
from pipeline.model import SPLITS, Label
from pipeline.simulation.calibrated import (
    WORLD_NAME,
    CalibratedLiterature,
    Calibration,
    calibration_json,
    load_fitted,
    resized,
)
from pipeline.simulation.literature import SimulatedLiterature
from pipeline.simulation.vocabulary import SimulationError
from pipeline.simulation.world import SimConfig, SimQuery, World

PAPER_SIZES = (656, 140, 173)
FILES = ("queries.jsonl", "abstracts.jsonl", "answer_key.jsonl")


def split_labels(size: int) -> list[Label]:
    """The paper's test mix scaled to `size`: 70/173 Beneficial, as many NoEffect, the
    rest Harmful (exactly 70 / 70 / 33 for 173)."""
    paired = round(size * 70 / 173)
    return ([Label.BENEFICIAL] * paired + [Label.NO_EFFECT] * paired
            + [Label.HARMFUL] * (size - 2 * paired))


def build_benchmark(seed: int = 0, config: SimConfig | None = None,
                    sizes: Sequence[int] = PAPER_SIZES) -> list[SimQuery]:
    """Queries grouped in reviews of one to four outcomes, split by review."""
    if len(sizes) != len(SPLITS) or any(size < 1 for size in sizes):
        raise SimulationError(f"need three positive split sizes, got {list(sizes)}")
    if sum(sizes) > World.capacity():
        raise SimulationError(f"at most {World.capacity()} queries in all (the vocabulary's "
                              f"intervention-outcome pairs), asked for {sum(sizes)}")
    world = World(seed, config)
    for split, size in zip(SPLITS, sizes, strict=True):
        labels = split_labels(size)
        world.rng.shuffle(labels)
        made = 0
        while made < size:
            made += len(world.review(split, labels[made:made + world.rng.randint(1, 4)]))
    return world.queries


def write_benchmark(out: Path, seed: int = 0, config: SimConfig | None = None,
                    sizes: Sequence[int] = PAPER_SIZES,
                    calibration: Calibration | None = None) -> dict[str, Any]:
    """queries.jsonl (splits, labels, entities' synonyms, mechanisms), abstracts.jsonl
    (what a search returns: a JSONL corpus plus topic and rank), answer_key.jsonl (what
    each abstract reports) and manifest.json. Returns the manifest. With a calibration,
    the calibrated world is written (its own config replaces `config`)."""
    if calibration is not None:
        config = calibration.sim_config()
    config = config or SimConfig()
    queries = build_benchmark(seed, config, sizes)
    if calibration is not None:
        queries = resized(queries, seed, calibration)
    source = open_world(queries, seed, config, calibration)
    out.mkdir(parents=True, exist_ok=True)
    abstracts, keys = [], []
    for topic in source.topic_ids:
        for abstract, key in source.literature(topic):
            abstracts.append({"pmid": abstract.pmid, "title": abstract.title,
                              "abstract": abstract.text, "year": abstract.year,
                              "publication_types": list(abstract.publication_types),
                              "mesh": list(abstract.mesh), "topic": topic, "rank": key.rank})
            keys.append(key.to_json())
    rows = {"queries.jsonl": [q.to_json() for q in queries], "abstracts.jsonl": abstracts,
            "answer_key.jsonl": keys}
    digests = {}
    for name in FILES:
        data = "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n"
                       for row in rows[name]).encode("utf-8")
        (out / name).write_bytes(data)
        digests[name] = hashlib.sha256(data).hexdigest()
    manifest = {
        "seed": seed, "config": asdict(config), "sizes": dict(zip(SPLITS, sizes, strict=True)),
        "labels": {split: {label.value: sum(q.split == split and q.label is label
                                            for q in queries)
                           for label in (Label.BENEFICIAL, Label.NO_EFFECT, Label.HARMFUL)}
                   for split in SPLITS},
        "abstracts": len(abstracts), "sha256": digests,
        "checksum": hashlib.sha256("".join(digests[n] for n in FILES).encode()).hexdigest(),
    }
    if calibration is not None:  # the original world's manifest stays as it was
        manifest |= {"world": WORLD_NAME, "calibration": calibration_json(calibration)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n",
                                       encoding="utf-8")
    return manifest


def load_benchmark(directory: Path) -> tuple[list[SimQuery], SimulatedLiterature]:
    """The queries of a written benchmark and a source serving the same abstracts
    (regenerated from the manifest's seed and configuration)."""
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    queries = [SimQuery.from_json(row) for _, row in read_jsonl(directory / "queries.jsonl")]
    config = SimConfig(**manifest["config"])
    calibration = (Calibration.from_json(manifest["calibration"])
                   if "calibration" in manifest else None)
    return queries, open_world(queries, int(manifest["seed"]), config, calibration)


def open_world(queries: Sequence[SimQuery], seed: int, config: SimConfig,
               calibration: Calibration | None = None) -> SimulatedLiterature:
    """The source of the original world, or of the calibrated one."""
    if calibration is None:
        return SimulatedLiterature(queries, seed, config)
    return CalibratedLiterature(queries, seed, calibration)


def calibrated_benchmark(seed: int, calibration: Calibration,
                         sizes: Sequence[int] = PAPER_SIZES) -> list[SimQuery]:
    """The original world's queries for the seed, with the calibrated literature sizes."""
    return resized(build_benchmark(seed, calibration.sim_config(), sizes), seed, calibration)


def paper_world(seed: int = 0) -> tuple[list[SimQuery], SimulatedLiterature]:
    """The calibrated world with the shipped fitted parameters, built in memory."""
    calibration = load_fitted()
    queries = calibrated_benchmark(seed, calibration)
    return queries, CalibratedLiterature(queries, seed, calibration)

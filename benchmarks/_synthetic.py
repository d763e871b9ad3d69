"""Seeded synthetic evidence with repeats and conflicting polarities: the parity tests and
the ingest benchmark write the same stream to both stores. Not part of the package: both
import it as `_synthetic` (the scripts' folder is on the path when run as
`python benchmarks/NAME.py`, and pytest's `pythonpath` in pyproject.toml adds it)."""

from __future__ import annotations

import random

from pipeline.model import Entity, Evidence, Polarity


def random_stream(rows: int, entities: int = 60, pmids: int = 400, seed: int = 0,
                  source: str = "e0", target: str = "e1",
                  endpoint_share: float = 0.15) -> list[Evidence]:
    """Evidence over a small entity set, so pairs repeat, PMIDs recur on the same edge with
    different confidences, and the same pair carries several polarities. A share of heads
    (and of tails) is the query's source (target), so direct and two-hop paths exist."""
    rng = random.Random(seed)
    names = [f"e{i}" for i in range(entities)]
    nodes = {name: Entity(id=name, name=name.upper()) for name in names}
    stream: list[Evidence] = []
    while len(stream) < rows:
        head = source if rng.random() < endpoint_share else rng.choice(names)
        tail = target if rng.random() < endpoint_share else rng.choice(names)
        if head == tail:
            continue
        confidence = rng.choice([0.0, 0.3, 0.5, rng.random() * 0.999])
        stream.append(Evidence(
            head=nodes[head], tail=nodes[tail],
            polarity=Polarity(rng.choice([-1, 0, 1])),
            confidence=confidence, pmid=str(rng.randrange(1, pmids)),
            sentence=f"{head} affects {tail} ({len(stream)})", extractor="test",
            year=rng.choice([None, 2015, 2020]), step=len(stream) // 100))
    return stream

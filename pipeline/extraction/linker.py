"""MeSH linking with scispacy's machinery over an index we build ourselves.

scispacy's KnowledgeBase holds the descriptors and their aliases and its CandidateGenerator
answers nearest-neighbour queries; the char-3-gram TF-IDF and the nmslib HNSW index are
built here (scispacy's stock builder needs scipy < 1.11 and drops small KBs through
min_df) and cached on disk under $DACG_CACHE (default ~/.cache/dacg)/mesh-index/<hash>,
never in the repository. A build takes one to two minutes for all of MeSH.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import joblib
import nmslib
import numpy as np
from scipy import sparse
from scispacy.candidate_generation import CandidateGenerator
from scispacy.linking import EntityLinker
from scispacy.linking_utils import Entity as KbEntity
from scispacy.linking_utils import KnowledgeBase
from sklearn.feature_extraction.text import TfidfVectorizer

CACHE_ENV = "DACG_CACHE"
INDEX_VERSION = "1"
HNSW_PARAMS = {"M": 24, "efConstruction": 100, "post": 0}
EF_SEARCH = 200
NEIGHBOURS = 10

# ui -> (canonical name, aliases)
Vocabulary = Mapping[str, tuple[str, Sequence[str]]]


def cache_root() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "dacg")


@dataclass(frozen=True, slots=True)
class LinkCandidate:
    ui: str
    score: float
    alias: str


def _digest(vocabulary: Vocabulary) -> str:
    hasher = hashlib.sha256(f"{INDEX_VERSION}|{sorted(HNSW_PARAMS.items())}".encode())
    for ui in sorted(vocabulary):
        name, aliases = vocabulary[ui]
        hasher.update("\x1f".join((ui, name, *aliases)).encode())
        hasher.update(b"\x1e")
    return hasher.hexdigest()[:16]


def knowledge_base(vocabulary: Vocabulary) -> KnowledgeBase:
    return KnowledgeBase([KbEntity(ui, name, list(aliases))
                          for ui, (name, aliases) in vocabulary.items()])


class MeshLinker:
    """Nearest MeSH aliases of a mention by char-3-gram TF-IDF cosine."""

    def __init__(self, generator: CandidateGenerator, directory: Path | None = None) -> None:
        self.generator = generator
        self.directory = directory

    @classmethod
    def load_or_build(cls, vocabulary: Vocabulary, cache_dir: Path | None = None) -> MeshLinker:
        directory = (cache_dir or cache_root() / "mesh-index") / _digest(vocabulary)
        kb = knowledge_base(vocabulary)
        if not (directory / "complete").is_file():
            _build(kb, directory)
        aliases = json.loads((directory / "concept_aliases.json").read_text(encoding="utf-8"))
        vectorizer = joblib.load(directory / "tfidf_vectorizer.joblib")
        index = nmslib.init(method="hnsw", space="cosinesimil_sparse",
                            data_type=nmslib.DataType.SPARSE_VECTOR)
        index.loadIndex(str(directory / "nmslib_index.bin"), load_data=True)
        index.setQueryTimeParams({"efSearch": EF_SEARCH})
        generator = CandidateGenerator(ann_index=index, tfidf_vectorizer=vectorizer,
                                       ann_concept_aliases_list=aliases, kb=kb)
        return cls(generator, directory)

    def candidates(self, mentions: list[str], k: int = NEIGHBOURS) -> list[list[LinkCandidate]]:
        """Per mention, the descriptors whose aliases are nearest, best alias each."""
        if not mentions:
            return []
        out = []
        for found in self.generator(mentions, k):
            out.append([LinkCandidate(c.concept_id, float(max(c.similarities)),
                                      c.aliases[int(np.argmax(c.similarities))])
                        for c in found])
        return out

    def entity_linker(self, threshold: float = 0.85) -> EntityLinker:
        """scispacy's EntityLinker over this index, for pipelines with an NER
        (it writes `span._.kb_ents` on doc.ents)."""
        return EntityLinker(candidate_generator=self.generator, threshold=threshold,
                            filter_for_definitions=False, resolve_abbreviations=True)


def _build(kb: KnowledgeBase, directory: Path) -> None:
    """Fit the vectorizer and the HNSW index, then move them into place atomically so
    that a crashed build never leaves a half index behind."""
    aliases = sorted(kb.alias_to_cuis)
    vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 3), min_df=1,
                                 dtype=np.float32)
    vectors = sparse.csr_matrix(vectorizer.fit_transform(aliases), dtype=np.float32)
    keep = np.asarray(vectors.sum(axis=1)).ravel() != 0  # nmslib crashes on empty rows
    aliases = [a for a, k in zip(aliases, keep, strict=True) if k]
    vectors = vectors[keep]
    index = nmslib.init(method="hnsw", space="cosinesimil_sparse",
                        data_type=nmslib.DataType.SPARSE_VECTOR)
    index.addDataPointBatch(vectors)
    index.createIndex({**HNSW_PARAMS, "indexThreadQty": max(1, (os.cpu_count() or 1))})
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".building-", dir=directory.parent))
    try:
        index.saveIndex(str(staging / "nmslib_index.bin"), save_data=True)
        joblib.dump(vectorizer, staging / "tfidf_vectorizer.joblib")
        (staging / "concept_aliases.json").write_text(json.dumps(aliases), encoding="utf-8")
        (staging / "complete").write_text("ok\n", encoding="utf-8")
        if directory.exists():
            shutil.rmtree(directory)
        staging.rename(directory)
    finally:
        if staging.exists():
            shutil.rmtree(staging)

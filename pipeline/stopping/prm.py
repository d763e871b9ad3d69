"""The process reward model r(phi_t) (SPEC §4, paper "Stopping Criterion II").

Trained in torch (float32) on Bradley-Terry preference pairs; used in numpy (float64) from
the saved weights, so answering a query never imports torch and a step's reward costs
microseconds.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.inference.features import FEATURE_NAMES, FEATURE_VERSION
from pipeline.model import Label
from pipeline.resources import shipped
from pipeline.trajectory import StepRecord

if TYPE_CHECKING:
    import torch

MODEL_FORMAT = "dacg-prm-1"
LAYERS = (len(FEATURE_NAMES), 128, 64, 32, 1)
MARGIN = 0.1
WEIGHTS_FILE = "weights.npz"
METADATA_FILE = "metadata.json"

Pair = tuple[StepRecord, StepRecord]  # (preferred, other), same query
Trajectories = Mapping[str, Sequence[StepRecord]]  # query id -> steps in order


@dataclass(frozen=True)
class TrainConfig:
    """Optimisation settings; the architecture (LAYERS) and margin m are fixed by the paper."""

    epochs: int = 200
    patience: int = 20  # epochs without a better validation loss before stopping
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    margin: float = MARGIN


def _vector(features: Mapping[str, float]) -> np.ndarray:
    try:
        return np.array([features[name] for name in FEATURE_NAMES], dtype=np.float64)
    except KeyError as missing:
        raise ValueError(f"feature {missing.args[0]!r} is missing ({FEATURE_VERSION} "
                         f"has {len(FEATURE_NAMES)} named features)") from None


def feature_matrix(steps: Sequence[StepRecord]) -> np.ndarray:
    """phi_t of each step as a row in FEATURE_NAMES order. Steps recorded with another
    feature version are refused: their numbers mean something else."""
    rows = np.empty((len(steps), len(FEATURE_NAMES)), dtype=np.float64)
    for i, step in enumerate(steps):
        if step.feature_version != FEATURE_VERSION:
            raise ValueError(f"query {step.query_id} step {step.step} has features "
                             f"{step.feature_version!r}, expected {FEATURE_VERSION!r}")
        rows[i] = _vector(step.features)
    return rows


@dataclass(frozen=True, eq=False)
class RewardModel:
    """The trained MLP as numpy arrays: weights[i] is (out, in) like torch's Linear, ReLU
    between layers; inputs are standardised with the training steps' mean and std.
    metadata holds the training record (data hash, accuracies, hyperparameters)."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    mean: np.ndarray
    std: np.ndarray
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def forward(self, rows: np.ndarray) -> np.ndarray:
        """Rewards of raw feature rows (n, 20) -> (n,)."""
        z = (rows - self.mean) / self.std
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            z = z @ w.T + b
            if i < last:
                z = np.maximum(z, 0.0)
        return z[:, 0]

    def reward(self, features: Mapping[str, float]) -> float:
        """r(phi_t) of one step's named features."""
        return float(self.forward(_vector(features)[None, :])[0])

    def save(self, directory: Path) -> None:
        """weights.npz (weight0, bias0, ...) and metadata.json (features, normalisation,
        architecture, training record)."""
        directory.mkdir(parents=True, exist_ok=True)
        arrays = {f"weight{i}": w for i, w in enumerate(self.weights)}
        arrays |= {f"bias{i}": b for i, b in enumerate(self.biases)}
        np.savez(directory / WEIGHTS_FILE, **arrays)
        meta = {"format": MODEL_FORMAT,
                "features": {"names": list(FEATURE_NAMES), "version": FEATURE_VERSION},
                "architecture": {"layers": list(LAYERS), "activation": "relu"},
                "normalisation": {"mean": self.mean.tolist(), "std": self.std.tolist()},
                "training": dict(self.metadata)}
        (directory / METADATA_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True)
                                               + "\n", encoding="utf-8")

    @classmethod
    def load(cls, directory: Path) -> RewardModel:
        """Read a saved model; refuse one trained on other features (one-line ValueError)."""
        meta_path, weights_path = directory / METADATA_FILE, directory / WEIGHTS_FILE
        if not meta_path.is_file() or not weights_path.is_file():
            raise ValueError(f"no PRM in {directory} (needs {METADATA_FILE} and {WEIGHTS_FILE})")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            features = meta["features"]
            if meta["format"] != MODEL_FORMAT:
                raise ValueError(f"format {meta['format']!r}, expected {MODEL_FORMAT!r}")
            if features["version"] != FEATURE_VERSION:
                raise ValueError(f"trained on features {features['version']!r}, this build "
                                 f"computes {FEATURE_VERSION!r}; retrain it (dacg prm train)")
            if features["names"] != list(FEATURE_NAMES):
                raise ValueError(f"feature names differ from {FEATURE_VERSION!r}'s; retrain it "
                                 f"(dacg prm train)")
            with np.load(weights_path, allow_pickle=False) as arrays:
                n = len(LAYERS) - 1
                weights = tuple(arrays[f"weight{i}"].astype(np.float64) for i in range(n))
                biases = tuple(arrays[f"bias{i}"].astype(np.float64) for i in range(n))
            if ([w.shape for w in weights] != list(zip(LAYERS[1:], LAYERS[:-1], strict=True))
                    or [b.shape for b in biases] != [(m,) for m in LAYERS[1:]]):
                raise ValueError(f"weights do not have the shape {list(LAYERS)}")
            mean = np.array(meta["normalisation"]["mean"], dtype=np.float64)
            std = np.array(meta["normalisation"]["std"], dtype=np.float64)
            if mean.shape != (LAYERS[0],) or std.shape != (LAYERS[0],):
                raise ValueError("normalisation does not match the features")
            if not all(np.isfinite(a).all() for a in (*weights, *biases, mean, std)):
                raise ValueError("weights or normalisation hold NaN or infinite values")
        except (KeyError, TypeError, ValueError, OSError, zipfile.BadZipFile) as error:
            detail = f"missing {error}" if isinstance(error, KeyError) else str(error)
            raise ValueError(f"PRM in {directory}: {detail}") from None
        return cls(weights, biases, mean, std, meta.get("training", {}))


def score_steps(model: RewardModel, steps: Sequence[StepRecord]) -> list[StepRecord]:
    """The steps with `reward` set by this model, so PRM rules can be replayed on a
    recording made before (or with another) model."""
    if not steps:
        return []
    rewards = model.forward(feature_matrix(steps))
    return [replace(step, reward=float(r)) for step, r in zip(steps, rewards, strict=True)]


def preference_pairs(trajectories: Trajectories, truth: Mapping[str, str]) -> list[Pair]:
    """(i, j) for every step i whose label is the query's true label and every step j of
    the same query whose label is not (NoEvidence is never correct). Queries in id order."""
    pairs: list[Pair] = []
    for query_id in sorted(trajectories):
        if query_id not in truth:
            raise ValueError(f"no true label for query {query_id!r}")
        steps = trajectories[query_id]
        right = [s for s in steps if s.label == truth[query_id] != Label.NO_EVIDENCE]
        wrong = [s for s in steps if s.label != truth[query_id] or s.label == Label.NO_EVIDENCE]
        pairs.extend((i, j) for i in right for j in wrong)
    return pairs


def pairwise_accuracy(model: RewardModel, pairs: Sequence[Pair]) -> float:
    """Share of pairs ranked the right way round, r_i > r_j strictly (ties count wrong)."""
    if not pairs:
        raise ValueError("no preference pairs to score")
    preferred = model.forward(feature_matrix([p[0] for p in pairs]))
    other = model.forward(feature_matrix([p[1] for p in pairs]))
    return float(np.mean(preferred > other))


def build_network() -> torch.nn.Sequential:
    """The torch MLP of LAYERS (the layout RewardModel reads back)."""
    import torch

    modules: list[torch.nn.Module] = []
    for i, (n_in, n_out) in enumerate(zip(LAYERS[:-1], LAYERS[1:], strict=True)):
        if i:
            modules.append(torch.nn.ReLU())
        modules.append(torch.nn.Linear(n_in, n_out))
    return torch.nn.Sequential(*modules)


@contextmanager
def _deterministic(seed: int) -> Iterator[None]:
    """Seeded, one thread, deterministic kernels; the caller's RNG state, thread count and
    determinism flag are restored afterwards. One thread also makes the result the same
    on machines with different core counts."""
    import torch

    threads, strict = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
        try:
            yield
        finally:
            torch.set_num_threads(threads)
            torch.use_deterministic_algorithms(strict)


def _bt_loss(net: torch.nn.Module, preferred: torch.Tensor, other: torch.Tensor,
             margin: float) -> torch.Tensor:
    """Bradley-Terry with margin: mean of -log sigmoid(r_i - r_j - m)."""
    import torch

    return -torch.nn.functional.logsigmoid(net(preferred) - net(other) - margin).mean()


def _fit(net: torch.nn.Module, train: tuple[torch.Tensor, torch.Tensor],
         validation: tuple[torch.Tensor, torch.Tensor], config: TrainConfig,
         seed: int) -> dict[str, Any]:
    """Adam on shuffled minibatches; keep the weights of the epoch with the lowest
    validation loss and stop after `patience` epochs without improvement."""
    import torch

    optimiser = torch.optim.Adam(net.parameters(), lr=config.learning_rate,
                                 weight_decay=config.weight_decay)
    order = torch.Generator().manual_seed(seed)
    best_loss, best_epoch, epoch = math.inf, 0, 0
    best_state = {k: v.clone() for k, v in net.state_dict().items()}
    for epoch in range(1, config.epochs + 1):
        net.train()
        for batch in torch.randperm(len(train[0]), generator=order).split(config.batch_size):
            loss = _bt_loss(net, train[0][batch], train[1][batch], config.margin)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        net.eval()
        with torch.no_grad():
            validation_loss = _bt_loss(net, *validation, config.margin).item()
        if validation_loss < best_loss:
            best_loss, best_epoch = validation_loss, epoch
            best_state = {k: v.clone() for k, v in net.state_dict().items()}
        elif epoch - best_epoch >= config.patience:
            break
    net.load_state_dict(best_state)
    return {"epochs_run": epoch, "best_epoch": best_epoch, "validation_loss": best_loss}


def _records_sha256(splits: Mapping[str, Trajectories], truth: Mapping[str, str]) -> str:
    """Content hash of what the model and its accuracies rest on: per split and query, the
    true label and every step's number, label, feature version and features."""
    digest = hashlib.sha256()
    for name in sorted(splits):
        for query_id, steps in sorted(splits[name].items()):
            record = [[s.step, s.label, s.feature_version, s.features] for s in steps]
            digest.update(json.dumps([name, query_id, truth[query_id], record],
                                     sort_keys=True).encode())
    return digest.hexdigest()


def train_prm(train: Trajectories, validation: Trajectories, truth: Mapping[str, str],
              seed: int = 0, *, test: Trajectories | None = None,
              config: TrainConfig | None = None,
              sources: Mapping[str, str] | None = None) -> tuple[RewardModel, dict[str, Any]]:
    """Train on the train split's pairs, early-stop on the validation pairs, report the
    pairwise accuracy on train / validation / test (test is never used for fitting).

    sources: file name -> sha256 of the input files, recorded with the model. Returns the
    model and a report (pairs, accuracies, epochs, seconds)."""
    import torch

    config = config or TrainConfig()
    started = time.perf_counter()
    splits: dict[str, Trajectories] = {"train": train, "validation": validation,
                                       "test": test or {}}
    pairs = {name: preference_pairs(runs, truth) for name, runs in splits.items()}
    for name in ("train", "validation"):
        if not pairs[name]:
            raise ValueError(f"no {name} preference pairs (each needs a query with both a "
                             f"correct and an incorrect step)")
    rows = feature_matrix([step for steps in train.values() for step in steps])
    mean = rows.mean(axis=0)
    std = rows.std(axis=0)
    std[std < 1e-12] = 1.0  # a constant feature carries no signal; leave it centred

    def standardised(split: str) -> tuple[torch.Tensor, torch.Tensor]:
        preferred, other = ((feature_matrix([p[k] for p in pairs[split]]) - mean) / std
                            for k in (0, 1))
        return (torch.from_numpy(preferred.astype(np.float32)),
                torch.from_numpy(other.astype(np.float32)))

    with _deterministic(seed):
        net = build_network()
        history = _fit(net, standardised("train"), standardised("validation"), config, seed)
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    model = RewardModel(tuple(m.weight.detach().numpy().astype(np.float64) for m in linear),
                        tuple(m.bias.detach().numpy().astype(np.float64) for m in linear),
                        mean, std)
    metadata = {
        "seed": seed, "torch_version": str(torch.__version__), "numpy_version": np.__version__,
        "hyperparameters": {**asdict(config), "loss": "bradley-terry", "optimiser": "adam",
                            "dtype": "float32",
                            "early_stopping": "validation loss"},
        "training_data": {"records_sha256": _records_sha256(splits, truth),
                          "files": dict(sources or {}),
                          "queries": {name: len(runs) for name, runs in splits.items()}},
        "pairs": {name: len(split_pairs) for name, split_pairs in pairs.items()},
        "pairwise_accuracy": {name: pairwise_accuracy(model, split_pairs) if split_pairs
                              else None for name, split_pairs in pairs.items()},
        **history,
    }
    return replace(model, metadata=metadata), {**metadata,
                                               "seconds": time.perf_counter() - started}


SHIPPED_PRM = "data/prm"


def prm_folder(spec: str | None) -> Path | None:
    """The PRM folder meant by a command-line value: None means the shipped weights (a
    missing copy is MissingResource, never a silent run without the PRM), 'none' no PRM."""
    if spec is not None and spec.strip().lower() == "none":
        return None
    return Path(spec) if spec else shipped(SHIPPED_PRM)


def load_reward_model(spec: str | None) -> RewardModel | None:
    folder = prm_folder(spec)
    return None if folder is None else RewardModel.load(folder)

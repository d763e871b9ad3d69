"""The PRM on synthetic trajectories whose `top_strength_gap` feature says whether a
step's label is correct: pairs, training (held-out ranking, determinism), numpy inference
against the torch forward pass, the saved format, and `dacg prm train`."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from pipeline.inference.features import FEATURE_NAMES, FEATURE_VERSION
from pipeline.recordings import write_steps
from pipeline.stopping.cli import app
from pipeline.stopping.prm import (
    METADATA_FILE,
    RewardModel,
    TrainConfig,
    build_network,
    feature_matrix,
    pairwise_accuracy,
    preference_pairs,
    score_steps,
    train_prm,
)
from pipeline.trajectory import StepRecord

LABELS = ("Beneficial", "NoEffect", "Harmful")
FAST = TrainConfig(epochs=30, patience=5)
runner = CliRunner()


def record(query_id: str, t: int, label: str, features: dict[str, float]) -> StepRecord:
    return StepRecord(
        query_id=query_id, step=t, retrieved_pmids=[], new_evidence=[], graph={},
        top_paths=[], posterior={}, informed=label != "NoEvidence", label=label, kl=0.5,
        energy={}, features=features, feature_version=FEATURE_VERSION)


def synthetic(n_queries: int, seed: int, prefix: str, steps: int = 8
              ) -> tuple[dict[str, list[StepRecord]], dict[str, str]]:
    """Runs where step 1 may have no evidence and each later label is right half the time;
    the signal is +-1 (noise sd 0.4) on one feature, the other 19 are pure noise."""
    rng = random.Random(seed)
    runs: dict[str, list[StepRecord]] = {}
    truth: dict[str, str] = {}
    for q in range(n_queries):
        query_id = f"{prefix}{q}"
        truth[query_id] = true = rng.choice(LABELS)
        runs[query_id] = []
        for t in range(1, steps + 1):
            correct = rng.random() < 0.5
            if t == 1 and rng.random() < 0.3:
                label, correct = "NoEvidence", False
            else:
                label = true if correct else rng.choice([x for x in LABELS if x != true])
            features = {name: rng.gauss(0.0, 1.0) for name in FEATURE_NAMES}
            features["top_strength_gap"] = (1.0 if correct else -1.0) + rng.gauss(0.0, 0.4)
            runs[query_id].append(record(query_id, t, label, features))
    return runs, truth


@pytest.fixture(scope="module")
def data() -> dict[str, dict]:
    train, t1 = synthetic(40, 1, "tr")
    validation, t2 = synthetic(15, 2, "va")
    test, t3 = synthetic(15, 3, "te")
    return {"train": train, "validation": validation, "test": test,
            "truth": {**t1, **t2, **t3}}


@pytest.fixture(scope="module")
def trained(data: dict[str, dict]) -> tuple[RewardModel, dict]:
    return train_prm(data["train"], data["validation"], data["truth"], seed=0,
                     test=data["test"], config=FAST)


def test_pairs_prefer_correct_steps_of_the_same_query() -> None:
    q1 = [record("q1", 1, "NoEvidence", {}), record("q1", 2, "NoEffect", {}),
          record("q1", 3, "Beneficial", {}), record("q1", 4, "NoEffect", {})]
    q2 = [record("q2", 1, "Harmful", {}), record("q2", 2, "Harmful", {})]
    pairs = preference_pairs({"q2": q2, "q1": q1}, {"q1": "NoEffect", "q2": "Harmful"})
    assert [(a.query_id, a.step, b.step) for a, b in pairs] == [
        ("q1", 2, 1), ("q1", 2, 3), ("q1", 4, 1), ("q1", 4, 3)]  # q2 is all correct
    with pytest.raises(ValueError, match="no true label"):
        preference_pairs({"q3": q2}, {"q1": "NoEffect"})


def test_trained_model_ranks_held_out_pairs(data: dict[str, dict],
                                            trained: tuple[RewardModel, dict]) -> None:
    model, report = trained
    test_pairs = preference_pairs(data["test"], data["truth"])
    assert report["pairs"]["test"] == len(test_pairs) > 100
    assert pairwise_accuracy(model, test_pairs) == report["pairwise_accuracy"]["test"] > 0.9
    assert report["pairwise_accuracy"]["validation"] > 0.9
    assert 1 <= report["best_epoch"] <= report["epochs_run"] <= FAST.epochs


def test_training_is_deterministic_for_a_seed(data: dict[str, dict],
                                              trained: tuple[RewardModel, dict]) -> None:
    threads = torch.get_num_threads()
    state = torch.random.get_rng_state()
    again, _ = train_prm(data["train"], data["validation"], data["truth"], seed=0,
                         test=data["test"], config=FAST)
    assert all(np.array_equal(a, b) for a, b in zip(again.weights, trained[0].weights,
                                                    strict=True))
    assert again.metadata == trained[0].metadata
    other, _ = train_prm(data["train"], data["validation"], data["truth"], seed=1,
                         config=TrainConfig(epochs=1))
    assert not np.array_equal(other.weights[0], trained[0].weights[0])
    # the caller's torch state is left as it was
    assert torch.get_num_threads() == threads
    assert torch.equal(torch.random.get_rng_state(), state)
    assert not torch.are_deterministic_algorithms_enabled()


def test_numpy_inference_equals_the_torch_forward_pass(
        data: dict[str, dict], trained: tuple[RewardModel, dict]) -> None:
    model = trained[0]
    net = build_network()
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():
        for layer, w, b in zip(linear, model.weights, model.biases, strict=True):
            layer.weight.copy_(torch.from_numpy(w))
            layer.bias.copy_(torch.from_numpy(b))
    rows = feature_matrix(data["test"]["te0"] + data["test"]["te1"])
    standardised = torch.from_numpy((rows - model.mean) / model.std)
    with torch.no_grad():
        exact = net.double()(standardised)[:, 0].numpy()
    assert np.allclose(model.forward(rows), exact, rtol=0, atol=1e-6)
    assert model.reward(data["test"]["te0"][0].features) == pytest.approx(exact[0], abs=1e-6)


def test_score_steps_sets_each_reward(data: dict[str, dict],
                                      trained: tuple[RewardModel, dict]) -> None:
    model = trained[0]
    steps = data["test"]["te2"]
    scored = score_steps(model, steps)
    assert [s.reward for s in scored] == pytest.approx([model.reward(s.features)
                                                        for s in steps], abs=1e-12)
    assert [asdict(s) | {"reward": None} for s in scored] == [asdict(s) for s in steps]


def test_save_load_round_trip_and_metadata(tmp_path: Path,
                                           trained: tuple[RewardModel, dict]) -> None:
    model = trained[0]
    model.save(tmp_path / "prm")
    loaded = RewardModel.load(tmp_path / "prm")
    rows = np.random.default_rng(0).normal(size=(5, len(FEATURE_NAMES)))
    assert np.array_equal(loaded.forward(rows), model.forward(rows))
    meta = json.loads((tmp_path / "prm" / METADATA_FILE).read_text())
    assert meta["features"] == {"names": list(FEATURE_NAMES), "version": FEATURE_VERSION}
    assert meta["architecture"]["layers"] == [20, 128, 64, 32, 1]
    assert len(meta["normalisation"]["mean"]) == 20
    training = meta["training"]
    assert training["seed"] == 0 and training["torch_version"] == str(torch.__version__)
    assert len(training["training_data"]["records_sha256"]) == 64
    assert set(training["pairwise_accuracy"]) == {"train", "validation", "test"}
    assert training["hyperparameters"]["margin"] == 0.1


def test_load_refuses_other_features_in_one_line(tmp_path: Path,
                                                 trained: tuple[RewardModel, dict]) -> None:
    trained[0].save(tmp_path)
    meta_path = tmp_path / METADATA_FILE
    meta = json.loads(meta_path.read_text())
    meta["features"]["version"] = "dacg-features-0"
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="retrain") as error:
        RewardModel.load(tmp_path)
    assert "\n" not in str(error.value)
    meta["features"] = {"names": list(FEATURE_NAMES[::-1]), "version": FEATURE_VERSION}
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="retrain"):
        RewardModel.load(tmp_path)
    with pytest.raises(ValueError, match="no PRM"):
        RewardModel.load(tmp_path / "missing")


def test_steps_from_another_feature_version_are_refused(
        trained: tuple[RewardModel, dict]) -> None:
    old = StepRecord(**(asdict(record("q", 1, "Harmful", dict.fromkeys(FEATURE_NAMES, 0.0)))
                        | {"feature_version": "dacg-features-0"}))
    with pytest.raises(ValueError, match="expected"):
        score_steps(trained[0], [old])
    with pytest.raises(ValueError, match="missing"):
        trained[0].reward({"direct_paths": 1.0})


def test_answering_side_never_imports_torch(tmp_path: Path,
                                            trained: tuple[RewardModel, dict]) -> None:
    trained[0].save(tmp_path)
    code = ("import sys; from pathlib import Path; "
            "from pipeline.stopping.prm import RewardModel; "
            "from pipeline.inference.features import FEATURE_NAMES; "
            f"m = RewardModel.load(Path({str(tmp_path)!r})); "
            "m.reward(dict.fromkeys(FEATURE_NAMES, 0.5)); print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def write_benchmark(directory: Path, data: dict[str, dict]) -> tuple[Path, Path]:
    queries = directory / "queries.jsonl"
    with queries.open("w", encoding="utf-8") as out:
        for split in ("train", "validation", "test"):
            for query_id in data[split]:
                out.write(json.dumps({"id": query_id, "label": data["truth"][query_id],
                                      "split": split}) + "\n")
    records = directory / "records.jsonl"
    for split in ("train", "validation", "test"):
        write_steps(records, [s for steps in data[split].values() for s in steps])
    return queries, records


def test_cli_trains_reports_and_writes_the_model(tmp_path: Path,
                                                 data: dict[str, dict]) -> None:
    queries, records = write_benchmark(tmp_path, data)
    result = runner.invoke(app, ["train", "--records", str(records), "--queries",
                                 str(queries), "--out", str(tmp_path / "prm"),
                                 "--epochs", "30", "--patience", "5"])
    assert result.exit_code == 0, result.stderr
    assert "test (held out)" in result.stdout and "pairwise accuracy" in result.stdout
    meta = json.loads((tmp_path / "prm" / METADATA_FILE).read_text())
    assert set(meta["training"]["training_data"]["files"]) == {str(records), str(queries)}
    assert meta["training"]["pairwise_accuracy"]["test"] > 0.9
    loaded = RewardModel.load(tmp_path / "prm")
    assert isinstance(loaded.reward(data["test"]["te0"][0].features), float)


def cli_error(args: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["train", *args])
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
    return result.exit_code, result.stderr


def test_cli_bad_inputs_are_one_line_errors(tmp_path: Path, data: dict[str, dict]) -> None:
    queries, records = write_benchmark(tmp_path, data)
    code, message = cli_error(["--records", str(tmp_path / "nope.jsonl"),
                               "--queries", str(queries)])
    assert code == 2 and "no such file" in message

    stranger = tmp_path / "stranger.jsonl"
    write_steps(stranger, [record("zz9", 1, "Harmful", dict.fromkeys(FEATURE_NAMES, 0.0))])
    code, message = cli_error(["--records", str(records), "--records", str(stranger),
                               "--queries", str(queries)])
    assert code == 1 and "zz9" in message

    all_right = tmp_path / "right.jsonl"
    write_steps(all_right, [s for steps in data["train"].values() for s in steps
                            if s.label == data["truth"][s.query_id]])
    code, message = cli_error(["--records", str(all_right), "--queries", str(queries)])
    assert code == 1 and "no train preference pairs" in message

    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text('{"id": "x"}\n')
    code, message = cli_error(["--records", str(records), "--queries", str(garbage)])
    assert code == 1 and f"{garbage}:1: not a query row (no 'label')" in message

    code, message = cli_error(["--records", str(garbage), "--queries", str(queries)])
    assert code == 1 and "not a trajectory file" in message

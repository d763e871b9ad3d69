"""Installed outside the checkout, DACG behaves as in it (issue 15, item 9): the wheel ships
the Cypher, the PRM weights, the confidence model and the frozen thresholds as package data,
and a missing one is an error, never a silent downgrade.

The wheel is built from this checkout and installed with --no-deps into a fresh venv in a
temporary folder; its dependencies come from this venv's site-packages through a plain .pth
line (a plain path: the editable-install hook living there is not run, so `pipeline` can only
be the wheel's copy). Everything runs with the working directory outside the checkout."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
QUERY = ["query", "vitamin D3 supplementation", "albuminuria", "--direction", "decrease",
         "--source", "simulated", "--json"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel built from this checkout; returns its bin folder."""
    where = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(where / "dist"), str(ROOT)], check=True, capture_output=True)
    (wheel,) = (where / "dist").glob("dacg-*.whl")
    env = where / "venv"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
                   check=True, capture_output=True)
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_paths()['purelib'])"], check=True,
                          capture_output=True, text=True).stdout.strip()
    Path(site, "checkout_dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return env / "bin"


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False,
                          env={"PATH": "/usr/bin:/bin", "COLUMNS": "120"}, timeout=600)


def test_the_wheel_uses_its_own_package_data(installed: Path, tmp_path: Path) -> None:
    found = run([str(installed / "python"), "-c", "import pipeline.resources as r; "
                 "print(r.shipped('data/prm')); print(r.shipped('data/eval/thresholds.json')); "
                 "print(r.shipped('data/models/confidence_lr.json')); "
                 "print(r.shipped('data/models/fallback_tfidf.json')); "
                 "print(r.shipped('data/eval/firmness.json')); "
                 "print(r.shipped('data/worlds/paper.json')); "
                 "print(r.shipped('data/simulation/vocabulary.txt')); "
                 "print(r.shipped('data/prm-paper'))"], tmp_path)
    assert found.returncode == 0, found.stderr
    for line in found.stdout.split():
        assert line.startswith(str(installed.parent)) and Path(line).exists()


def test_query_and_demo_match_the_checkout(installed: Path, tmp_path: Path) -> None:
    outside, inside = tmp_path / "outside", tmp_path / "inside"
    outside.mkdir()
    inside.mkdir()
    for args in (QUERY, ["demo"]):
        store = ["--db", str(outside / "g.sqlite")] if args is QUERY else []
        wheel = run([str(installed / "dacg"), *args, *store], outside)
        store = ["--db", str(inside / "g.sqlite")] if args is QUERY else []
        checkout = run([sys.executable, "-m", "pipeline", *args, *store], ROOT)
        assert wheel.returncode == checkout.returncode == 0, wheel.stderr + checkout.stderr
        if args is QUERY:
            assert wheel.stderr == checkout.stderr == ""
            answers = [json.loads(r.stdout) for r in (wheel, checkout)]
            for answer in answers:
                answer.pop("run")  # a fresh id per run
            assert answers[0] == answers[1] and answers[0]["stop"]["reason"] == "kl"
        else:  # the demo's stderr is its run time only
            assert all(r.stderr.startswith("done in ") for r in (wheel, checkout))
            assert wheel.stdout == checkout.stdout
            assert "Calibrated world, test split" in wheel.stdout


@pytest.mark.parametrize("missing, named", [("data/prm", "data/prm is missing"),
                                            ("data/models", "data/models/confidence_lr.json"),
                                            ("data/eval", "data/eval/thresholds.json")])
def test_a_missing_shipped_file_is_an_error(installed: Path, tmp_path: Path, missing: str,
                                            named: str) -> None:
    package = Path(run([str(installed / "python"), "-c", "import pipeline; "
                        "print(pipeline.__file__)"], tmp_path).stdout.strip()).parent
    moved = tmp_path / "moved"
    shutil.move(package / missing, moved)
    try:
        result = run([str(installed / "dacg"), *QUERY, "--db", str(tmp_path / "g.sqlite")],
                     tmp_path)
    finally:
        shutil.move(moved, package / missing)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and named in result.stderr, result.stderr
    assert "Traceback" not in result.stderr

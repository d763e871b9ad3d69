"""The default install has no torch (it is the `train` extra), so the commands a new user
runs must work without it, and `dacg prm train` must say in one line how to get it.

The test venv has torch, so each command runs in a real process with torch hidden: a finder
first on sys.meta_path makes every `import torch` fail as it does where torch is not
installed, leaving sys.modules as it would be there (spaCy's thinc then goes on without
torch, and scipy sees no torch arrays). `.ci/run` also runs the README's main command in a
venv built without extras and checks that torch is absent from it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

NO_TORCH = """import sys
class NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "torch":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, NoTorch())
"""
HIDE_TORCH = NO_TORCH + "from pipeline.cli import main; main()"


def dacg(*args: str, db: Path | None = None,
         hide_torch: bool = True) -> subprocess.CompletedProcess[str]:
    command = ["-c", HIDE_TORCH] if hide_torch else ["-m", "pipeline"]
    store = ["--db", str(db)] if db else []
    return subprocess.run([sys.executable, *command, *args, *store],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NEO4J_URI": ""})


def test_every_module_imports_without_torch() -> None:
    """No module imports torch at its top, whatever command it serves."""
    code = NO_TORCH + ("import importlib, pkgutil, pipeline; names = [m.name for m in "
                       "pkgutil.walk_packages(pipeline.__path__, 'pipeline.') "
                       "if m.name != 'pipeline.__main__']; "
                       "[importlib.import_module(n) for n in names]; print(len(names))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 50  # the whole package was walked


def test_demo_gives_the_same_table_without_torch() -> None:
    without = dacg("demo")
    assert without.returncode == 0, without.stderr
    assert "Calibrated world, test split" in without.stdout
    assert "no PRM weights" not in without.stdout  # the shipped weights score in numpy
    with_torch = dacg("demo", hide_torch=False)
    assert with_torch.returncode == 0, with_torch.stderr
    assert without.stdout == with_torch.stdout


def test_query_on_the_simulated_source_runs_without_torch(tmp_path: Path) -> None:
    result = dacg("query", "cholecalciferol", "glycated haemoglobin", "--direction",
                  "decrease", "--source", "simulated", "--json", db=tmp_path / "g.sqlite")
    assert result.returncode == 0, result.stderr
    assert '"label": "Beneficial"' in result.stdout


def test_query_on_the_graph_loads_neither_spacy_nor_torch(tmp_path: Path) -> None:
    """`--source kg` answers from the stored graph: it must start without the extractor's
    spaCy (the README's start-up figure), so importing spaCy fails here as torch does."""
    no_spacy = NO_TORCH.replace('== "torch"', 'in ("torch", "spacy", "thinc")')
    assert no_spacy != NO_TORCH
    result = subprocess.run(
        [sys.executable, "-c", no_spacy + "from pipeline.cli import main; main()", "query",
         "zinc", "common cold duration", "--direction", "decrease", "--source", "kg",
         "--json", "--db", str(tmp_path / "g.sqlite")],
        capture_output=True, text=True, timeout=120, env={**os.environ, "NEO4J_URI": ""})
    assert result.returncode == 0, result.stderr
    assert '"paths": []' in result.stdout  # an empty graph: no path, and no traceback


def test_prm_train_without_torch_is_one_line_saying_how_to_install_it(
        tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-c", HIDE_TORCH, "prm", "train", "--records",
                             str(tmp_path / "r.jsonl"), "--queries", str(tmp_path / "q.jsonl")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: training the PRM needs torch")
    assert "pip install -e '.[train]'" in result.stderr

"""`dacg bench record`: resumable (a killed recording continues and ends with the same file),
parallel workers write what one process writes, whole runs only, bad specs are one line."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.benchmarks import BenchmarkError, open_benchmark
from pipeline.cli import app
from pipeline.evaluation.record import record, recorded_queries
from pipeline.recordings import drop_torn_tail, read_trajectories
from pipeline.resources import MEDEVIDENCE_DEV
from pipeline.simulation.benchmark import write_benchmark

SIZES = (6, 3, 3)
MEDEVIDENCE = MEDEVIDENCE_DEV


@pytest.fixture(scope="module")
def benchmark(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bench")
    write_benchmark(folder, seed=11, sizes=SIZES)
    return folder


@pytest.fixture(scope="module")
def uninterrupted(benchmark: Path, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    out = tmp_path_factory.mktemp("full") / "r.jsonl"
    queries, _ = open_benchmark(str(benchmark))
    assert record(str(benchmark), queries, out, budget=6, opener=open_benchmark) == sum(SIZES)
    return out.read_bytes()


def test_resuming_redoes_nothing_and_ends_with_the_same_file(
        benchmark: Path, uninterrupted: bytes, tmp_path: Path) -> None:
    queries, _ = open_benchmark(str(benchmark))
    out = tmp_path / "r.jsonl"
    assert record(str(benchmark), queries[:4], out, budget=6, opener=open_benchmark) == 4
    seen: list[str] = []
    assert record(str(benchmark), queries, out, budget=6, on_query=seen.append,
                  opener=open_benchmark) == 8
    assert seen == [q.id for q in queries[4:]]  # the first four were not redone
    assert out.read_bytes() == uninterrupted
    assert record(str(benchmark), queries, out, budget=6, opener=open_benchmark) == 0


def test_parallel_workers_write_the_same_file(benchmark: Path, uninterrupted: bytes,
                                              tmp_path: Path) -> None:
    queries, _ = open_benchmark(str(benchmark))
    out = tmp_path / "r.jsonl"
    assert record(str(benchmark), queries, out, budget=6, jobs=2,
                  opener=open_benchmark) == len(queries)
    assert out.read_bytes() == uninterrupted


def test_a_torn_last_line_is_cut_before_resuming(benchmark: Path, uninterrupted: bytes,
                                                 tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    first_run = uninterrupted.split(b"\n")[0] + b"\n"
    out.write_bytes(first_run + b'{"query_id": "Q00')  # a crash mid-line
    drop_torn_tail(out)
    assert out.read_bytes() == first_run


def test_kill_9_mid_recording_then_rerun_gives_the_uninterrupted_file(
        benchmark: Path, uninterrupted: bytes, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-c", "from pipeline.cli import main; main()", "bench",
               "record", str(benchmark),
               "--out", str(out), "--budget", "6"]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while (child.poll() is None and time.monotonic() < deadline
           and not (out.is_file() and out.stat().st_size > 0)):
        time.sleep(0.02)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    # a kill inside the one write call can cut it short (Linux lets a fatal signal end a
    # large write early), leaving half a line; the rerun drops it, so look at what it keeps
    kept = tmp_path / "kept.jsonl"
    kept.write_bytes(out.read_bytes())
    drop_torn_tail(kept)
    partial = recorded_queries(kept)
    assert 0 < len(partial) < sum(SIZES), "the kill should land mid-recording"
    runs = read_trajectories(kept)
    assert all(len(steps) == 6 or steps[-1].step < 6 for steps in runs.values())
    rerun = subprocess.run(command, capture_output=True, text=True, check=False)
    assert rerun.returncode == 0, rerun.stderr
    assert out.read_bytes() == uninterrupted


def test_bad_benchmark_spec_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "record", str(tmp_path / "nothing"),
                                      "--out", str(tmp_path / "r.jsonl")])
    assert result.exit_code == 2
    assert "neither 'simulated'" in result.output and "Traceback" not in result.output
    with pytest.raises(BenchmarkError):
        open_benchmark(str(tmp_path))


def test_unknown_split_is_one_line(benchmark: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "record", str(benchmark), "--split", "dev",
                                      "--out", str(tmp_path / "r.jsonl")])
    assert result.exit_code == 2
    assert "no query of split 'dev'" in result.output


@pytest.mark.skipif(not MEDEVIDENCE.is_file(), reason="../shared/data/medevidence is absent")
def test_medevidence_questions_record_one_abstract_per_step(tmp_path: Path) -> None:
    queries, source = open_benchmark(str(MEDEVIDENCE))
    assert {q.split for q in queries} == {"dev"} and len(queries) > 100
    out = tmp_path / "m.jsonl"
    assert record(str(MEDEVIDENCE), queries[:2], out, budget=20,
                  opened=(queries, source), opener=open_benchmark) == 2
    for steps in read_trajectories(out).values():
        assert all(len(s.retrieved_pmids) == 1 for s in steps)
        assert len({s.retrieved_pmids[0] for s in steps}) == len(steps)


@pytest.mark.skipif(not MEDEVIDENCE.is_file(), reason="../shared/data/medevidence is absent")
def test_medevidence_ledger_files_every_wrong_answer_once(tmp_path: Path) -> None:
    """The ledger and the 5-way score are two readings of the same answers: the ledger
    must list exactly the questions the score counts as wrong."""
    from pipeline.evaluation.ledger import CAUSES

    queries, source = open_benchmark(str(MEDEVIDENCE))
    out = tmp_path / "m.jsonl"
    record(str(MEDEVIDENCE), queries[:16], out, budget=20, opened=(queries, source),
           opener=open_benchmark)
    report = tmp_path / "report"
    scored = CliRunner().invoke(app, ["bench", "medevidence", str(out), "--data",
                                      str(MEDEVIDENCE), "--out", str(report)])
    assert scored.exit_code == 0, scored.output
    dacg_row = next(line for line in (report / "medevidence.md").read_text().splitlines()
                    if line.startswith("| DACG |"))
    all_dev = float(dacg_row.split("|")[4])  # 5-way on all recorded questions, %
    table = (report / "medevidence.md").read_text()
    split = [line for line in table.splitlines()
             if line.startswith(("| both ground", "| not both"))]
    assert sum(int(line.split("|")[2]) for line in split) == 16  # every question, once
    filed = CliRunner().invoke(app, ["bench", "ledger", str(out), "--data", str(MEDEVIDENCE),
                                     "--show"])
    assert filed.exit_code == 0, filed.output
    wrong = round(16 * (1 - all_dev / 100))
    assert f"{wrong} wrong of 16 questions." in filed.output
    causes = [line.split("cause: ")[1].split(" [")[0] for line in filed.output.splitlines()
              if line.startswith("Q")]
    assert len(causes) == wrong and set(causes) <= set(CAUSES)
    # the ceilings' "right now" is the same count; each ceiling can only add answers
    right = filed.output.split("Right now: ")[1].split(" ")[0]
    assert int(right) == 16 - wrong
    ceilings = re.findall(r"as read\): (\d+) ", filed.output)
    assert len(ceilings) == 2 and all(16 - wrong <= int(n) <= 16 for n in ceilings)
    bad = CliRunner().invoke(app, ["bench", "ledger", str(out), "--data", str(MEDEVIDENCE),
                                   "--half", "third"])
    assert bad.exit_code == 2 and "unknown half" in bad.output

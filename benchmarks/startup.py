"""Start-up of `dacg query`: seconds from launch to the first line of output (issue 18).

    python benchmarks/startup.py [--python OTHER/.venv/bin/python ...] [--repeats 5]

Two sources that load different parts: `--source kg` answers from the ingested example
graph (the store and the answer, no extractor) and `--source simulated` reads two steps of
the seeded literature (the extractor too, so spaCy, which imports torch whenever torch is
installed). Each interpreter (this one first, then every --python, each with the `pipeline`
installed in its own venv and its own scratch graph) runs each command once to warm the
file cache and write bytecode, then --repeats times, interleaved with the others; the
figure is the median, and the ratio is against this interpreter in the same run. A last
run of each says whether the process had loaded torch at exit.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "examples" / "zinc_cold_evidence.jsonl"
QUERIES = {
    "kg": ["zinc", "common cold duration", "--direction", "decrease", "--source", "kg"],
    "simulated": ["cholecalciferol", "glycated haemoglobin", "--direction", "decrease",
                  "--source", "simulated"],
}
# Runs the command like `python -m pipeline`, then reports on stderr whether torch was loaded.
REPORT_TORCH = ("import atexit, sys; atexit.register(lambda: print('torch loaded:', "
                "'torch' in sys.modules, file=sys.stderr)); from pipeline.cli import main; main()")
# Unbuffered, so the first line arrives when printed; bytecode written, as for a user.
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONUNBUFFERED": "1", "NEO4J_URI": ""}


def first_line_seconds(command: list[str]) -> float:
    """Seconds from launch to the first line on stdout; the command must then succeed."""
    started = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          env=ENV) as process:
        assert process.stdout is not None
        if not process.stdout.readline():
            sys.exit(f"no output from {' '.join(command)}")
        seconds = time.perf_counter() - started
        process.stdout.read()
    if process.returncode:
        sys.exit(f"exit {process.returncode} from {' '.join(command)}")
    return seconds


def loads_torch(python: str, args: list[str]) -> bool:
    result = subprocess.run([python, "-c", REPORT_TORCH, *args], capture_output=True,
                            text=True, env=ENV, check=True)
    return "torch loaded: True" in result.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", default=[],
                        help="another venv's interpreter to time (repeatable)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    pythons = [sys.executable, *args.python]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"median of {args.repeats} runs, seconds to the first line of `dacg query`")
    with tempfile.TemporaryDirectory() as scratch:
        dbs = {python: ["--db", str(Path(scratch) / f"graph-{n}.sqlite")]
               for n, python in enumerate(pythons)}
        for python, db in dbs.items():
            subprocess.run([python, "-m", "pipeline", "ingest", str(EXAMPLE), *db],
                           check=True, capture_output=True, env=ENV)
        for source, query in QUERIES.items():
            commands = {python: [python, "-m", "pipeline", "query", *query, *db]
                        for python, db in dbs.items()}
            for command in commands.values():
                first_line_seconds(command)  # warm-up: file cache and bytecode
            times: dict[str, list[float]] = {python: [] for python in pythons}
            for _ in range(args.repeats):  # interleaved, so a slow spell hits every venv
                for python, command in commands.items():
                    times[python].append(first_line_seconds(command))
            print(f"--source {source}")
            for python, runs in times.items():
                torch = loads_torch(python, commands[python][3:])
                ratio = statistics.median(runs) / statistics.median(times[sys.executable])
                print(f"  {statistics.median(runs):6.2f} s (min {min(runs):.2f}, max "
                      f"{max(runs):.2f}; {ratio:.2f}x the first)  torch loaded: "
                      f"{str(torch):<5}  {python}")


if __name__ == "__main__":
    main()

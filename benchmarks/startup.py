"""Start-up of `dacg query`: seconds from launch to the first line of output (issue 18).

    python benchmarks/startup.py [--python OTHER/.venv/bin/python ...] [--repeats 5]

Two sources that load different parts: `--source kg` answers from the ingested example
graph (the store and the answer, no extractor) and `--source simulated` reads two steps of
the seeded literature (the extractor too, so spaCy, which imports torch whenever torch is
installed). Each interpreter (this one first, then every --python, each with the `pipeline`
installed in its own venv and its own scratch graph) runs each command once to warm the
file cache and write bytecode, then --repeats times; the figure is the median, and the
ratio is against this interpreter in the same run. A last run of each says whether the
process had loaded torch at exit.
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
        medians: dict[tuple[str, str], float] = {}
        for number, python in enumerate(pythons):
            db = ["--db", str(Path(scratch) / f"graph-{number}.sqlite")]
            subprocess.run([python, "-m", "pipeline", "ingest", str(EXAMPLE), *db],
                           check=True, capture_output=True, env=ENV)
            print(python)
            for source, query in QUERIES.items():
                command = [python, "-m", "pipeline", "query", *query, *db]
                first_line_seconds(command)  # warm-up: file cache and bytecode
                times = [first_line_seconds(command) for _ in range(args.repeats)]
                medians[python, source] = statistics.median(times)
                torch = loads_torch(python, ["query", *query, *db])
                ratio = medians[python, source] / medians[sys.executable, source]
                print(f"  --source {source:<9} {medians[python, source]:6.2f} s "
                      f"(min {min(times):.2f}, max {max(times):.2f}; {ratio:.2f}x the first "
                      f"interpreter); torch loaded: {torch}")


if __name__ == "__main__":
    main()

"""Recordings: JSONL files of `StepRecord`s, one per retrieval step, written whole runs at
a time and read back grouped by query. Also read here: the benchmark's queries file (true
label and split of each recorded query), which every consumer of recordings scores
against."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import asdict
from pathlib import Path

from pipeline.jsonl import read_jsonl_objects
from pipeline.model import SPLITS
from pipeline.trajectory import StepRecord


def write_steps(path: Path, steps: Iterable[StepRecord], append: bool = True) -> None:
    """Append steps as JSON lines in one write() call, so a run killed mid-recording
    leaves whole runs behind, never part of one (a short write is rolled back)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    block = "".join(json.dumps(asdict(step), sort_keys=True) + "\n" for step in steps)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(path, flags, 0o644)
    try:
        start = os.fstat(fd).st_size
        data = block.encode("utf-8")
        try:
            written = os.write(fd, data)
        except OSError:
            written = -1
        if written != len(data):
            if stat.S_ISREG(os.fstat(fd).st_mode):  # a device (/dev/full) cannot be cut
                os.ftruncate(fd, start)
            raise OSError(errno.ENOSPC, "could not write the run (disk full?); nothing of it "
                          "was kept", str(path))
    finally:
        os.close(fd)


def drop_torn_tail(path: Path) -> None:
    """Cut a last line that has no newline (a write cut short by a crash of the machine),
    so a resumed recording appends after whole lines only."""
    if not path.is_file():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)


def read_steps(path: Path) -> Iterator[StepRecord]:
    for number, row in read_jsonl_objects(path):
        try:
            yield StepRecord(**row)
        except TypeError as error:
            raise ValueError(f"{path}:{number}: not a step record ({error})") from None


def read_trajectories(path: Path) -> dict[str, list[StepRecord]]:
    """Steps grouped by query, in step order."""
    runs: dict[str, list[StepRecord]] = {}
    for step in read_steps(path):
        runs.setdefault(step.query_id, []).append(step)
    for steps in runs.values():
        steps.sort(key=lambda s: s.step)
    return runs


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_queries(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """True label and split by query id from queries.jsonl (`id`, `label`, `split`)."""
    truth: dict[str, str] = {}
    split: dict[str, str] = {}
    for number, row in read_jsonl_objects(path):
        try:
            query_id, label, part = str(row["id"]), str(row["label"]), str(row["split"])
        except KeyError as error:
            raise ValueError(f"{path}:{number}: not a query row (no {error})") from None
        if part not in SPLITS:
            raise ValueError(f"{path}:{number}: split {part!r} is not one of "
                             f"{', '.join(SPLITS)}")
        truth[query_id], split[query_id] = label, part
    return truth, split


def read_records(paths: list[Path]) -> dict[str, list[StepRecord]]:
    """All recorded runs; one query recorded in two files is ambiguous, so refused."""
    runs: dict[str, list[StepRecord]] = {}
    seen_in: dict[str, Path] = {}
    for path in paths:
        try:
            file_runs = read_trajectories(path)
        except (ValueError, TypeError) as error:
            raise ValueError(f"{path}: not a trajectory file ({error})") from None
        for query_id, steps in file_runs.items():
            if query_id in runs:
                raise ValueError(f"query {query_id!r} is recorded in both {seen_in[query_id]} "
                                 f"and {path}")
            runs[query_id], seen_in[query_id] = steps, path
    return runs


def read_labelled_records(records: list[Path], queries: Path
                          ) -> tuple[dict[str, str], dict[str, str], dict[str, list[StepRecord]]]:
    """True labels, splits and recorded runs; a missing file (FileNotFoundError) or a
    recorded query the queries file does not know (ValueError) is refused."""
    for path in [*records, queries]:
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file")
    truth, split_of = read_queries(queries)
    runs = read_records(records)
    refuse_unknown(runs, truth, str(queries))
    return truth, split_of, runs


def refuse_unknown(runs: Mapping[str, object], known: Collection[str], where: str) -> None:
    """ValueError naming the recorded queries that `where` (the queries, questions or
    benchmark they should come from) does not know."""
    unknown = sorted(set(runs) - set(known), key=str)
    if unknown:
        shown = ", ".join(unknown[:5]) + (" ..." if len(unknown) > 5 else "")
        raise ValueError(f"{len(unknown)} recorded queries are not in {where}: {shown}")

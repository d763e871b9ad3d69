"""Fault injection (issue 15): every bad input, and every store or output file that fails,
gives exit 1 (2 for a usage mistake) and exactly one line on stderr naming the file and the
reason, never a traceback; the store and the files are left as they were, and no secret
appears in any output or written file. Each case runs `dacg` as a real process."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.resources import MEDEVIDENCE_DEV

SECRET = "Sentinel-Secret-4711"
ROOT = Path(__file__).resolve().parents[1]
MEDEVIDENCE = MEDEVIDENCE_DEV


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def dacg(*args: str | Path, env: dict[str, str] | None = None,
         prefix: list[str] | None = None, preexec: Callable[[], None] | None = None,
         cwd: Path | None = None) -> Run:
    """`dacg ARGS` in a fresh process, with secrets in its environment."""
    base = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp"),
            "NEO4J_PASSWORD": SECRET, "NCBI_API_KEY": SECRET}
    result = subprocess.run([*(prefix or []), sys.executable, "-m", "pipeline", *map(str, args)],
                            capture_output=True, text=True, env={**base, **(env or {})},
                            preexec_fn=preexec, cwd=cwd or ROOT, check=False, timeout=300)
    return Run(result.returncode, result.stdout, result.stderr)


def assert_one_line(run: Run, code: int = 1, *fragments: str) -> str:
    """Exit code, exactly one `error:` line on stderr, no traceback, no secret."""
    lines = run.err.split("\n")
    assert run.code == code, run.err
    assert len(lines) == 2 and lines[1] == "" and lines[0].startswith("error: "), run.err
    assert "Traceback" not in run.out + run.err
    assert SECRET not in run.out + run.err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def row(i: int, **changes: object) -> dict[str, object]:
    return {"head": f"drug {i}", "tail": "outcome", "polarity": 1, "confidence": 0.5,
            "pmid": str(1000 + i), **changes}


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def tables(db: Path) -> list[str]:
    """The store's content, table for table (a hot journal left by a failed write is rolled
    back on opening, as SQLite guarantees)."""
    with sqlite3.connect(db) as connection:
        return list(connection.iterdump())


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """An embedded store holding one edge."""
    db = tmp_path / "store" / "graph.sqlite"
    assert dacg("ingest", write_jsonl(tmp_path / "seed.jsonl", [row(0)]), "--db", db).code == 0
    return db


# --- 1. Partial writes: rows the store cannot take are refused before any batch ----------

UNSTORABLE = {
    "year of 20 digits": {"year": 99999999999999999999},
    "lone surrogate": {"sentence": "bad \udfff"},
    "extractor object": {"extractor": {"name": "x"}},
    "extractor list": {"extractor": ["x"]},
    "step of 30 digits": {"step": 10**30},
}


@pytest.mark.parametrize("case", sorted(UNSTORABLE))
def test_unstorable_row_after_10050_good_rows_writes_nothing(tmp_path: Path, store: Path,
                                                             case: str) -> None:
    before, raw = tables(store), store.read_bytes()
    rows = [row(i) for i in range(1, 10_051)] + [row(99_999, **UNSTORABLE[case])]
    path = write_jsonl(tmp_path / "bad.jsonl", rows)
    assert_one_line(dacg("ingest", path, "--db", store), 1, f"{path}:10051: ")
    assert store.read_bytes() == raw and tables(store) == before


@pytest.mark.neo4j
def test_neo4j_path_refuses_the_same_rows(tmp_path: Path, neo4j_server, neo4j_driver) -> None:
    env = {"NEO4J_URI": neo4j_server.uri, "NEO4J_USER": neo4j_server.user,
           "NEO4J_PASSWORD": neo4j_server.password}
    namespace = f"faults-{os.getpid()}"
    for case, changes in sorted(UNSTORABLE.items()):
        path = write_jsonl(tmp_path / f"{case}.jsonl", [row(1), row(2, **changes)])
        run = dacg("ingest", path, "--store", "neo4j", "--namespace", namespace, env=env)
        assert_one_line(run, 1, f"{path}:2: ")
    records, _, _ = neo4j_driver.execute_query(
        "MATCH (n:Entity {ns: $ns}) RETURN count(n) AS n", ns=namespace)
    assert records[0]["n"] == 0


# --- 2. Store and output-file faults: one line naming the file ----------------------------

def without_dac_override() -> list[str]:
    """Root ignores file modes; drop that capability so a read-only place is read-only."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot make a place read-only")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]


def test_store_locked_by_another_process_waits_then_one_line(tmp_path: Path,
                                                               store: Path) -> None:
    from pipeline.graph.embedded_store import LOCK_WAIT_SECONDS

    before = tables(store)
    holder = sqlite3.connect(store)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        run = dacg("ingest", write_jsonl(tmp_path / "e.jsonl", [row(1)]), "--db", store)
        waited = time.monotonic() - started
    finally:
        holder.rollback()
        holder.close()
    assert_one_line(run, 1, str(store), "database is locked")
    assert LOCK_WAIT_SECONDS <= waited < LOCK_WAIT_SECONDS + 30
    assert tables(store) == before


def test_store_freed_within_the_wait_is_written(tmp_path: Path, store: Path) -> None:
    holder = sqlite3.connect(store)
    holder.execute("BEGIN EXCLUSIVE")
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(dacg, "ingest", write_jsonl(tmp_path / "e.jsonl", [row(1)]),
                             "--db", store)
        time.sleep(1.0)
        holder.rollback()
        holder.close()
        assert future.result().code == 0
    assert len([line for line in tables(store) if "INSERT INTO \"evidence\"" in line]) == 2


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
@pytest.mark.parametrize("command", ["ingest", "query"])
def test_damaged_store_file(tmp_path: Path, damage: str, command: str) -> None:
    db = tmp_path / "graph.sqlite"
    rows = [row(i, sentence="s" * 500) for i in range(200)]
    assert dacg("ingest", write_jsonl(tmp_path / "e.jsonl", rows), "--db", db).code == 0
    data = db.read_bytes()
    db.write_bytes(data[:len(data) // 2] if damage == "truncated" else os.urandom(len(data)))
    raw = db.read_bytes()
    args = (["ingest", write_jsonl(tmp_path / "more.jsonl", [row(500)])]
            if command == "ingest" else ["query", "drug 1", "outcome", "--source", "kg"])
    assert_one_line(dacg(*args, "--db", db), 1, f"embedded store {db}: ")
    assert db.read_bytes() == raw


def test_read_only_store_directory(tmp_path: Path, store: Path) -> None:
    prefix = without_dac_override()
    before, raw = tables(store), store.read_bytes()
    store.chmod(0o444)
    store.parent.chmod(0o555)
    try:
        run = dacg("ingest", write_jsonl(tmp_path / "e.jsonl", [row(1)]), "--db", store,
                   prefix=prefix)
    finally:
        store.parent.chmod(0o755)
        store.chmod(0o644)
    assert_one_line(run, 1, str(store), "readonly")
    assert store.read_bytes() == raw and tables(store) == before


def test_new_store_in_read_only_directory(tmp_path: Path) -> None:
    prefix = without_dac_override()
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o555)
    run = dacg("ingest", write_jsonl(tmp_path / "e.jsonl", [row(1)]), "--db",
               folder / "graph.sqlite", prefix=prefix)
    assert_one_line(run, 1, str(folder / "graph.sqlite"))
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("where", ["directory", "under a file"])
def test_db_path_that_cannot_be_a_store(tmp_path: Path, where: str) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("keep", encoding="utf-8")
    db = tmp_path / "folder" if where == "directory" else tmp_path / "file" / "graph.sqlite"
    run = dacg("ingest", write_jsonl(tmp_path / "e.jsonl", [row(1)]), "--db", db)
    assert_one_line(run, 1, str(tmp_path / ("folder" if where == "directory" else "file")))
    assert (tmp_path / "file").read_text(encoding="utf-8") == "keep"
    assert list((tmp_path / "folder").iterdir()) == []


def test_full_disk_during_ingest_keeps_the_store(tmp_path: Path, store: Path) -> None:
    """A file-size limit makes every write past 2 MB fail as a full disk does."""
    before = tables(store)

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2_000_000, 2_000_000))

    rows = [row(i, sentence="x" * 200) for i in range(1, 20_001)]
    run = dacg("ingest", write_jsonl(tmp_path / "big.jsonl", rows), "--db", store,
               "--batch-size", "100000", preexec=small_disk)
    assert_one_line(run, 1, f"embedded store {store}: ")
    assert tables(store) == before


QUESTION = ("vitamin D3 supplementation", "albuminuria", "--direction", "decrease",
            "--source", "simulated")


@pytest.mark.parametrize("target", ["read-only folder", "directory", "/dev/full"])
def test_record_into_a_place_that_cannot_take_it(tmp_path: Path, target: str) -> None:
    prefix: list[str] = []
    if target == "read-only folder":
        prefix = without_dac_override()
        folder = tmp_path / "ro"
        folder.mkdir(mode=0o555)
        record = folder / "run.jsonl"
    elif target == "directory":
        record = tmp_path / "a-directory"
        record.mkdir()
    else:
        record = Path("/dev/full")
    run = dacg("query", *QUESTION, "--record", record, "--db", tmp_path / "g.sqlite",
               prefix=prefix)
    assert_one_line(run, 1, str(record))
    if target == "read-only folder":
        assert not record.exists()


@pytest.mark.parametrize("content, reason", [
    ('{"head": "a", "tail": "b", "polarity": 1, "confidence": 1' + "1" * 400 + ', "pmid": "1"}',
     "confidence must be in [0, 1)"),
    ('{"head": "a", "tail": "b", "polarity": 1, "confidence": 0.5, "pmid": ' + "1" * 4400 + "}",
     "not valid JSON (Exceeds the limit (4300 digits)"),
    ("[" * 100_000 + "]" * 100_000, "not valid JSON (nested too deeply)"),
])
def test_numbers_and_nesting_no_parser_can_take(tmp_path: Path, store: Path, content: str,
                                                 reason: str) -> None:
    before = tables(store)
    path = tmp_path / "bad.jsonl"
    path.write_text(content + "\n", encoding="utf-8")
    assert_one_line(dacg("ingest", path, "--db", store), 1, f"{path}:1: {reason}")
    assert tables(store) == before


def medevidence_line(tmp_path: Path, name: str, change: Callable[[dict], None]) -> Path:
    question = json.loads(MEDEVIDENCE.read_text(encoding="utf-8").split("\n", 1)[0])
    change(question)
    return write_jsonl(tmp_path / name, [question])


@pytest.mark.skipif(not MEDEVIDENCE.is_file(), reason="needs ../shared MedEvidence data")
@pytest.mark.parametrize("case, change, reason", [
    ("sources is a string", lambda q: q.update(sources="abc"),
     "field 'sources' has the wrong type (str)"),
    ("no question", lambda q: q.pop("question"), "missing field 'question'"),
])
def test_bench_record_bad_medevidence_line(tmp_path: Path, case: str,
                                           change: Callable[[dict], None], reason: str) -> None:
    path = medevidence_line(tmp_path, "me.jsonl", change)
    out = tmp_path / "records.jsonl"
    assert_one_line(dacg("bench", "record", path, "--out", out), 1, f"{path}:1: {reason}")
    assert not out.exists()


@pytest.mark.skipif(not MEDEVIDENCE.is_file(), reason="needs ../shared MedEvidence data")
def test_bench_record_refuses_a_question_id_met_twice(tmp_path: Path) -> None:
    question = json.loads(MEDEVIDENCE.read_text(encoding="utf-8").split("\n", 1)[0])
    path = write_jsonl(tmp_path / "me.jsonl", [question, question])
    out = tmp_path / "records.jsonl"
    assert_one_line(dacg("bench", "record", path, "--out", out), 1,
                    f"{path}:2: question id '{question['question_id']}' appears twice")
    assert not out.exists()


@pytest.mark.parametrize("line, reason", [
    ('{"prompt_id": "1", "outcome": "pain", "label": "significantly increased"}',
     "missing field(s) intervention"),
    ('{"prompt_id": "1", "intervention": "a", "outcome": "pain", "label": "maybe"}',
     "label 'maybe' is not one of significantly increased, significantly decreased, "
     "no significant difference"),
    ("[1]", "each line must be a JSON object"),
])
@pytest.mark.parametrize("command", [("eval", "extractor"), ("extract", "train")])
def test_bad_prompt_line(tmp_path: Path, line: str, reason: str,
                         command: tuple[str, str]) -> None:
    path = tmp_path / "ei.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    out = ("--out", tmp_path / "m.json", "--fallback-out", tmp_path / "f.json") if (
        command[0] == "extract") else ()
    assert_one_line(dacg(*command, "--data", path, *out), 1, f"{path}:1: {reason}")
    assert not (tmp_path / "m.json").exists()


@pytest.mark.skipif(not MEDEVIDENCE.is_file(), reason="needs ../shared MedEvidence data")
def test_bench_medevidence_on_empty_records(tmp_path: Path) -> None:
    empty = tmp_path / "records.jsonl"
    empty.write_text("", encoding="utf-8")
    run = dacg("bench", "medevidence", empty, "--data", MEDEVIDENCE, "--out", tmp_path / "r")
    assert_one_line(run, 1, f"no recorded question in {empty}")
    assert not (tmp_path / "r").exists()


@pytest.mark.skipif(not MEDEVIDENCE.is_file(), reason="needs ../shared MedEvidence data")
@pytest.mark.parametrize("command", ["medevidence", "ledger"])
def test_bench_medevidence_on_question_ids_that_are_not_numbers(tmp_path: Path,
                                                                 command: str) -> None:
    question = json.loads(MEDEVIDENCE.read_text(encoding="utf-8").splitlines()[0])
    data = tmp_path / "questions.jsonl"
    data.write_text(json.dumps({**question, "question_id": "q1"}) + "\n", encoding="utf-8")
    records = tmp_path / "records.jsonl"
    records.write_text("", encoding="utf-8")
    out = ("--out", tmp_path / "r") if command == "medevidence" else ()
    assert_one_line(dacg("bench", command, records, "--data", data, *out), 1,
                    f"{data}: question id 'q1' is not a whole number (the tuning and "
                    "held-out halves are the even and odd ids)")
    assert not (tmp_path / "r").exists()


# --- 3. Secrets in NEO4J_URI --------------------------------------------------------------

@pytest.mark.parametrize("uri, shown", [
    (f"bolt://neo4j:{SECRET}@localhost:7687", "must not hold credentials"),
    (f"neo4j://admin:{SECRET}@localhost", "must not hold credentials"),
    (f"http://neo4j:{SECRET}@localhost:7474", "NEO4J_URI must start with one of"),
    (f"bolt://localhost:7687?password={SECRET}", "bolt://localhost:7687?***"),
    (f"neo4j://localhost:1?password={SECRET}", "cannot reach Neo4j at neo4j://localhost:1?***"),
    ("http://localhost:7474", "NEO4J_URI must start with one of"),  # no driver warning
])
def test_neo4j_uri_secrets_are_never_printed(uri: str, shown: str) -> None:
    assert_one_line(dacg("query", "zinc", "cold", "--source", "kg", env={"NEO4J_URI": uri}),
                    1, shown)


@pytest.mark.parametrize("uri", [f"bolt://neo4j:{SECRET}@db.example:7687",
                                 f"neo4j://db.example:7687?password={SECRET}"])
def test_browse_never_prints_uri_credentials(uri: str) -> None:
    run = dacg("browse", "run-x", env={"NEO4J_URI": uri})
    assert run.code == 0 and SECRET not in run.out + run.err
    assert "db.example" in run.out


# --- 4. Names printed as they are ---------------------------------------------------------

def test_names_with_brackets_are_printed_verbatim(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    names = {"head": "benzo[a]pyrene", "tail": "x [/bold] :pill: y"}
    path = write_jsonl(tmp_path / "e.jsonl", [row(1, **names, sentence="[red]said[/red]")])
    assert dacg("ingest", path, "--db", db).code == 0
    run = dacg("query", names["head"], names["tail"], "--source", "kg", "--explain",
               "--db", db, env={"COLUMNS": "300"})
    assert run.code == 0, run.err
    assert f"{names['head']} -[+1, w=0.500]-> {names['tail']}: PMIDs 1001" in run.out
    assert "[red]said[/red]" in run.out


# --- 5. Valid JSON accepted (the smaller validation gaps: tests/test_graph_store.py) -------

def test_line_separators_inside_json_strings_are_not_line_breaks(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    path = tmp_path / "e.jsonl"
    rows = [row(1, head="drug\u2028one", sentence="a\u0085b\u2029c"), row(2)]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    assert dacg("ingest", path, "--db", db).code == 0
    with sqlite3.connect(db) as connection:
        sentences = {s for (s,) in connection.execute("SELECT sentence FROM evidence")}
    assert "a\u0085b\u2029c" in sentences


def test_concurrent_ingests_report_only_their_own_new_evidence(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    assert dacg("ingest", write_jsonl(tmp_path / "seed.jsonl", [row(0)]), "--db", db).code == 0
    files = [write_jsonl(tmp_path / f"{k}.jsonl", [row(i) for i in range(k, 6000, 2)])
             for k in (1, 2)]
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda f: dacg("ingest", f, "--db", db, "--batch-size", "50"),
                             files))
    reported = [int(r.out.split("new edges, ")[1].split(" new")[0]) for r in runs]
    assert [r.code for r in runs] == [0, 0]
    assert sum(reported) == 5999  # 1..5999, each PMID new once
    assert reported == [3000, 2999]


def test_query_namespace_is_checked_like_ingest(tmp_path: Path) -> None:
    run = dacg("query", "a", "b", "--source", "kg", "--namespace", "a b;DROP",
               "--db", tmp_path / "g.sqlite")
    assert_one_line(run, 2, "namespace must be")
    assert not (tmp_path / "g.sqlite").exists()


def test_prm_weights_that_are_nan_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "prm"
    shutil.copytree(ROOT / "data" / "prm", folder)
    with np.load(folder / "weights.npz") as arrays:
        weights = {name: np.full_like(arrays[name], np.nan) for name in arrays.files}
    np.savez(folder / "weights.npz", **weights)
    run = dacg("query", *QUESTION, "--prm", folder, "--db", tmp_path / "g.sqlite")
    assert_one_line(run, 1, str(folder), "NaN")


@pytest.mark.parametrize("name, content", [("garbage.jsonl", os.urandom(3000)),
                                           ("garbage.jsonl.gz", b"\x1f\x8b" + b"x" * 300)])
def test_garbage_corpus_names_the_file(tmp_path: Path, name: str, content: bytes) -> None:
    corpus = tmp_path / name
    corpus.write_bytes(content)
    run = dacg("query", "zinc", "cold", "--source", corpus, "--db", tmp_path / "g.sqlite")
    assert_one_line(run, 1, str(corpus))


@pytest.mark.skipif(not MEDEVIDENCE.is_file(), reason="needs ../shared MedEvidence data")
def test_bench_record_resumes_after_a_torn_last_line(tmp_path: Path) -> None:
    questions = tmp_path / "me.jsonl"
    lines = MEDEVIDENCE.read_text(encoding="utf-8").split("\n")[:2]
    questions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    once, out = tmp_path / "once.jsonl", tmp_path / "resumed.jsonl"
    assert dacg("bench", "record", questions, "--out", once).code == 0
    whole = once.read_text(encoding="utf-8")
    first_id = str(json.loads(lines[0])["question_id"])
    first_run = [line for line in whole.split("\n")
                 if line and json.loads(line)["query_id"] == first_id]
    assert 0 < len(first_run) < len(whole.split("\n")) - 1
    out.write_text("\n".join(first_run) + "\n" + '{"query_id": "1", "ste', encoding="utf-8")
    run = dacg("bench", "record", questions, "--out", out)
    assert run.code == 0, run.err
    assert "1 were already in" in run.out
    assert out.read_text(encoding="utf-8") == whole


# --- Property: any JSON value in any field is refused in one line or written whole --------

JSON_SCALARS = (st.none() | st.booleans() | st.integers()
                | st.integers(min_value=-(10**40), max_value=10**40)
                | st.floats(allow_nan=True, allow_infinity=True)
                | st.text(max_size=40) | st.text(min_size=290, max_size=320)
                | st.sampled_from(["\udfff", "a\ud800b", "x\u202ey", "\ufdfa" * 17,
                                   "[/bold]", "+1", "-1", "0", "2019", "1e3", " 42 "]))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                           max_leaves=6)
FIELD_NAMES = ("head", "tail", "polarity", "confidence", "pmid", "sentence", "extractor",
               "year", "step")


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(FIELD_NAMES), value=JSON_VALUES)
def test_any_value_in_any_field_is_refused_in_one_line_or_written_whole(
        tmp_path: Path, field: str, value: object) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app

    db = tmp_path / f"{uuid.uuid4().hex}.sqlite"
    good = [row(1), row(2, sentence="kept")]
    path = tmp_path / f"{uuid.uuid4().hex}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [*good, row(3, **{field: value})]),
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["ingest", str(path), "--db", str(db)])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.stdout + result.stderr
    if result.exit_code == 0:
        with sqlite3.connect(db) as connection:
            stored = connection.execute("SELECT count(*) FROM evidence").fetchone()[0]
        assert stored == 3 and result.stderr == ""
    else:
        assert result.exit_code == 1
        lines = result.stderr.split("\n")
        assert len(lines) == 2 and lines[0].startswith(f"error: {path}:3: "), result.stderr
        assert not db.exists() or tables(db) == tables_of_empty_store(tmp_path)


def tables_of_empty_store(tmp_path: Path) -> list[str]:
    from pipeline.graph.embedded_store import EmbeddedStore

    empty = tmp_path / "empty.sqlite"
    EmbeddedStore(empty).close()
    return tables(empty)


# --- 12. Neo4j version and read-only use --------------------------------------------------

@pytest.mark.parametrize("agent, version", [("Neo4j/5.26.0", (5, 26)), ("Neo4j/5.23.1", (5, 23)),
                                            ("Neo4j/2025.01.0", (2025, 1))])
def test_servers_new_enough_are_accepted(agent: str, version: tuple[int, int]) -> None:
    from pipeline.graph.neo4j_store import check_server_version

    assert check_server_version(agent) == version


@pytest.mark.parametrize("agent", ["Neo4j/5.22.0", "Neo4j/4.4.30", "Memgraph/2.1"])
def test_older_servers_get_one_line_saying_what_is_needed(agent: str) -> None:
    from pipeline.graph.neo4j_store import check_server_version
    from pipeline.graph.store import StoreUnavailable

    with pytest.raises(StoreUnavailable, match=r"needs Neo4j 5\.23 or later") as error:
        check_server_version(agent)
    assert "\n" not in str(error.value)


def test_connecting_writes_no_schema() -> None:
    """Read-only credentials must be able to query: the schema is set up on first write."""
    from unittest.mock import MagicMock

    from pipeline.graph.neo4j_store import Neo4jStore

    driver = MagicMock()
    Neo4jStore(driver)
    assert driver.mock_calls == []


@pytest.mark.neo4j
def test_first_write_sets_up_the_schema(neo4j_driver) -> None:
    from pipeline.graph.neo4j_store import Neo4jStore
    from pipeline.model import make_evidence

    store = Neo4jStore(neo4j_driver)
    store.write(f"schema-{os.getpid()}", [make_evidence("a", "b", 1, 0.5, "1")])
    records, _, _ = neo4j_driver.execute_query("SHOW CONSTRAINTS YIELD labelsOrTypes "
                                               "RETURN collect(labelsOrTypes) AS found")
    assert ["Entity"] in records[0]["found"]

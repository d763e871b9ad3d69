"""A real Neo4j 5.26 LTS without Docker: the in-process harness from Maven Central, in a child JVM.

Needs only Java 17+ and Maven (Maven only for the first, cached build). The launcher
(`neo4j_launcher/`, a tiny Maven project) is built once per source hash into
`$DACG_CACHE/neo4j-launcher/<hash>` (default `~/.cache/dacg`). The password travels in the
child's environment, never on its command line (visible in `ps`) and is never printed.

    python -m pipeline.graph.local_neo4j start [--home DIR] [--bolt-port 7687] [--http-port 7474]
    python -m pipeline.graph.local_neo4j stop PID
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable, SessionExpired

SOURCES = Path(__file__).resolve().parent / "neo4j_launcher"
MAIN_CLASS = "dacg.Launcher"
PASSWORD_ENV = "DACG_NEO4J_PASSWORD"
WATCH_PID_ENV = "DACG_NEO4J_WATCH_PID"
BUILD_TIMEOUT = 1800.0  # a cold build downloads ~160 MB of jars from Maven Central
# Heap 2g + page cache 1g (set in Launcher.java) suits a small dev box or CI runner. The
# --add-opens flags are the ones Neo4j's own start script passes on Java 17.
JVM_OPTIONS = (
    "-Xmx2g",
    "-XX:+UseG1GC",
    "-XX:+ExitOnOutOfMemoryError",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
)
# C1-only JIT: about half the startup time on 2 busy cores, slower steady state; for tests.
QUICK_START_JVM_OPTIONS = ("-XX:TieredStopAtLevel=1",)
_JAR = Path("target") / "dacg-neo4j-launcher.jar"
_LIB = Path("target") / "lib"


@dataclass(frozen=True)
class LocalNeo4j:
    """A running launcher: where to connect, whom to stop, where the data lives."""

    bolt_uri: str
    http_uri: str
    pid: int
    home: Path  # the data dir


def local_neo4j_possible() -> str | None:
    """None when this machine can run the launcher, else a one-line reason why not."""
    java = shutil.which("java")
    if java is None:
        return "java is not on PATH (Neo4j 5.26 needs Java 17+)"
    major = _java_major(java)
    if major is None:
        return f"could not read the Java version from `{java} -version`"
    if major < 17:
        return f"{java} is Java {major}; Neo4j 5.26 needs Java 17+"
    if not _is_built(launcher_dir()) and shutil.which("mvn") is None:
        return "mvn is not on PATH (needed once, to fetch Neo4j from Maven Central)"
    return None


def launcher_dir() -> Path:
    """The cache dir for the current launcher sources (keyed by their hash)."""
    root = Path(os.environ.get("DACG_CACHE") or Path.home() / ".cache" / "dacg")
    return root.expanduser() / "neo4j-launcher" / _sources_hash()


def build_launcher(timeout: float = BUILD_TIMEOUT) -> Path:
    """Build the launcher with Maven unless cached; return its dir (holding target/)."""
    final = launcher_dir()
    if _is_built(final):
        return final
    mvn = shutil.which("mvn")
    if mvn is None:
        raise RuntimeError("cannot build the Neo4j launcher: mvn is not on PATH")
    final.parent.mkdir(parents=True, exist_ok=True)
    # Build in a private dir and rename at the end, so concurrent builds cannot clash and a
    # half-finished build is never mistaken for a cached one.
    work = Path(tempfile.mkdtemp(prefix=f".{final.name}.", dir=final.parent))
    try:
        shutil.copytree(SOURCES, work, dirs_exist_ok=True, ignore=shutil.ignore_patterns("target"))
        log = work / "build.log"
        cmd = [mvn, "-q", "-B", "package", "dependency:copy-dependencies"]
        with log.open("wb") as out:
            try:
                rc = subprocess.run(cmd, cwd=work, stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=subprocess.STDOUT, timeout=timeout).returncode
            except subprocess.TimeoutExpired:
                rc = None
        if rc != 0 or not _is_built(work):
            kept = final.parent / f"build-{final.name}.log"
            shutil.copyfile(log, kept)
            why = f"timed out after {timeout:.0f}s" if rc is None else f"exit {rc}"
            raise RuntimeError(f"Maven build of the Neo4j launcher failed ({why}): "
                               f"{_last_line(kept, 0)} (log: {kept})")
        try:
            work.rename(final)
        except OSError:
            if not _is_built(final):  # not a lost race with another build
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return final


def start_local_neo4j(password: str, home: Path | None = None, bolt_port: int = 0,
                      http_port: int = 0, timeout: float = 300.0, *,
                      exit_with_parent: bool = False,
                      jvm_options: Sequence[str] = ()) -> LocalNeo4j:
    """Start Neo4j in a detached child JVM and return once Bolt accepts `password`.

    Builds the launcher first if needed (not counted in `timeout`). Ports 0 mean "pick free
    ones". Output goes to `home/launcher.log`. With `exit_with_parent` the JVM stops itself
    when this process dies (so a killed test run leaves no JVM behind). `jvm_options` are
    appended to JVM_OPTIONS (tests pass QUICK_START_JVM_OPTIONS). On failure the child is
    killed and a RuntimeError with a one-line reason and the log path is raised.
    """
    if not password:
        raise ValueError("a non-empty password is required")
    reason = local_neo4j_possible()
    if reason is not None:
        raise RuntimeError(f"cannot start a local Neo4j: {reason}")
    built = build_launcher()
    java = shutil.which("java")
    assert java is not None  # checked by local_neo4j_possible()
    if home is None:
        home = Path(tempfile.mkdtemp(prefix="dacg-neo4j-"))
    home = home.expanduser().resolve()
    home.mkdir(parents=True, exist_ok=True)
    bolt_port, http_port = _pick_ports(bolt_port, http_port)
    classpath = os.pathsep.join([str(built / _JAR), str(built / _LIB / "*")])
    scratch = home / "tmp"  # log4j and Jetty leave files in java.io.tmpdir on every start
    scratch.mkdir(exist_ok=True)
    cmd = [java, *JVM_OPTIONS, f"-Djava.io.tmpdir={scratch}", *jvm_options, "-cp", classpath,
           MAIN_CLASS, str(home), str(bolt_port), str(http_port)]
    log = home / "launcher.log"
    offset = log.stat().st_size if log.exists() else 0  # the log is appended to across runs
    env = {k: v for k, v in os.environ.items() if k != WATCH_PID_ENV} | {PASSWORD_ENV: password}
    if exit_with_parent:
        env[WATCH_PID_ENV] = str(os.getpid())
    deadline = time.monotonic() + timeout
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, cwd=home, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True, env=env)
    try:
        bolt_uri, http_uri = _wait_for_ready_line(proc, log, offset, deadline, timeout)
        _wait_for_bolt(bolt_uri, password, deadline, timeout, log)
    except BaseException:
        proc.kill()
        proc.wait(timeout=30)
        raise
    return LocalNeo4j(bolt_uri=bolt_uri, http_uri=http_uri, pid=proc.pid, home=home)


def stop_local_neo4j(pid: int, timeout: float = 60.0) -> None:
    """Stop a launcher: SIGTERM (clean shutdown), then SIGKILL after `timeout`.

    Quiet if the process is already gone; refuses to signal a live process that is not a
    launcher (a stale PID may have been reused).
    """
    if pid <= 0:  # os.kill(0 or -1, ...) would signal whole process groups
        raise ValueError(f"not a process id: {pid}")
    if _gone(pid):
        return
    cmdline = _cmdline(pid)
    if cmdline and MAIN_CLASS not in cmdline:
        raise RuntimeError(f"PID {pid} is not a DACG Neo4j launcher; not stopping it")
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 10.0)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if _gone(pid):
                return
            time.sleep(0.1)
    raise RuntimeError(f"Neo4j launcher PID {pid} did not exit after SIGKILL")


# --- helpers ---------------------------------------------------------------------------------


def _sources_hash() -> str:
    """Hash of the launcher sources, so edits to them trigger a rebuild."""
    digest = hashlib.sha256()
    for path in sorted(p for p in SOURCES.rglob("*") if p.is_file() and "target" not in p.parts):
        digest.update(path.relative_to(SOURCES).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _is_built(directory: Path) -> bool:
    return (directory / _JAR).is_file() and (directory / _LIB).is_dir()


def _java_major(java: str) -> int | None:
    """Major version of `java` ("1.8" -> 8, "17.0.15" -> 17), or None if unreadable."""
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if match is None:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def _pick_ports(*wanted: int) -> list[int]:
    """Replace each 0 with a distinct free local port (Neo4j must advertise concrete ports)."""
    sockets: list[socket.socket] = []
    ports: list[int] = []
    try:
        for port in wanted:
            if port == 0:
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.bind(("127.0.0.1", 0))
                sockets.append(sock)
                port = sock.getsockname()[1]
            ports.append(port)
    finally:
        for sock in sockets:
            sock.close()
    return ports


def _log_lines(log: Path, offset: int) -> list[str]:
    try:
        with log.open("rb") as f:
            f.seek(offset)
            return f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return []


def _last_line(log: Path, offset: int) -> str:
    """The most telling line of a log: the root cause of a Java stack trace, else the last."""
    lines = [ln.strip() for ln in _log_lines(log, offset) if ln.strip()]
    causes = [ln for ln in lines if ln.startswith("Caused by:") or ln.startswith("[ERROR]")]
    tail = causes[-1] if causes else (lines[-1] if lines else "(no output)")
    return tail[:300]


def _wait_for_ready_line(proc: subprocess.Popen[bytes], log: Path, offset: int,
                         deadline: float, timeout: float) -> tuple[str, str]:
    """Wait for `READY <bolt> <http>` from the launcher; return both URIs."""
    while True:
        for line in _log_lines(log, offset):
            if line.startswith("READY "):
                bolt, http = line.split()[1:3]
                return bolt.rstrip("/"), http.rstrip("/")
        rc = proc.poll()
        if rc is not None:
            raise RuntimeError(f"Neo4j launcher exited with code {rc} before it was ready: "
                               f"{_last_line(log, offset)} (log: {log})")
        if time.monotonic() > deadline:
            raise RuntimeError(f"Neo4j launcher was not ready within {timeout:.0f}s: "
                               f"{_last_line(log, offset)} (log: {log})")
        time.sleep(0.2)


def _wait_for_bolt(uri: str, password: str, deadline: float, timeout: float, log: Path) -> None:
    """Wait until a real Bolt session authenticates with `password`."""
    with GraphDatabase.driver(uri, auth=("neo4j", password), connection_timeout=5.0) as driver:
        while True:
            try:
                driver.verify_connectivity()
                return
            except AuthError as exc:
                raise RuntimeError(f"Neo4j at {uri} rejected the password (log: {log})") from exc
            except (ServiceUnavailable, SessionExpired, Neo4jError, OSError) as exc:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"Bolt at {uri} did not answer within {timeout:.0f}s: "
                                       f"{exc} (log: {log})") from exc
                time.sleep(0.5)


def _gone(pid: int) -> bool:
    """True if `pid` no longer runs (reaping it if it is our exited child)."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return True
    except ChildProcessError:
        pass  # not our child: look it up instead
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:  # a zombie still answers kill(0) but has stopped running
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def _cmdline(pid: int) -> str | None:
    """The command line of `pid`, or None where it cannot be read."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        pass
    try:
        out = subprocess.run(["ps", "-o", "args=", "-p", str(pid)], capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def main(argv: Sequence[str] | None = None) -> int:
    """`start` / `stop` a local Neo4j from the shell (password from NEO4J_PASSWORD)."""
    parser = argparse.ArgumentParser(prog="python -m pipeline.graph.local_neo4j",
                                     description="Run Neo4j 5.26 locally without Docker.")
    sub = parser.add_subparsers(dest="command", required=True)
    start = sub.add_parser("start", help="start Neo4j in the background (password: NEO4J_PASSWORD)")
    start.add_argument("--home", type=Path, default=Path(".dacg/neo4j"),
                       help="data directory (default: .dacg/neo4j)")
    start.add_argument("--bolt-port", type=int, default=7687)
    start.add_argument("--http-port", type=int, default=7474)
    start.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for startup")
    stop = sub.add_parser("stop", help="stop a Neo4j started by `start`")
    stop.add_argument("pid", type=int)
    args = parser.parse_args(argv)
    try:
        if args.command == "stop":
            stop_local_neo4j(args.pid)
            print(f"stopped Neo4j (PID {args.pid})")
            return 0
        password = os.environ.get("NEO4J_PASSWORD")
        if not password:
            print("error: set NEO4J_PASSWORD to the password Neo4j should require",
                  file=sys.stderr)
            return 2
        server = start_local_neo4j(password, home=args.home, bolt_port=args.bolt_port,
                                   http_port=args.http_port, timeout=args.timeout)
    except (RuntimeError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Neo4j 5.26 is running (PID {server.pid}; data and launcher.log in {server.home})")
    print(f"  Bolt:    {server.bolt_uri}  (user neo4j, password from NEO4J_PASSWORD)")
    print(f"  Browser: {server.http_uri}/browser/")
    print(f"  Stop:    python -m pipeline.graph.local_neo4j stop {server.pid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

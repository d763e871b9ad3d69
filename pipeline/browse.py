"""`dacg browse`: how to look at a run's causal graph in Neo4j Browser.

Builds the Browser URL (connect form pre-filled) and the `:param` lines for a run, and can
serve `cypher/browser/` (saved queries, GraSS style, guide) over HTTP with CORS so Browser's
`:guide` and `:style` commands can fetch them from `localhost`.
"""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Callable
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from pipeline.graph.store import DEFAULT_NAMESPACE, check_namespace
from pipeline.inference.paths import hop_discounts
from pipeline.model import Entity
from pipeline.resources import shipped
from pipeline.settings import redact_uri

SAVED_QUERIES = ("run_subgraph", "top_paths", "conflicts", "edge_evidence", "kg_top_edges")
STYLE_FILE = "dacg.grass"
GUIDE_FILE = "guide.html"
DEFAULT_HTTP_PORT = 7474
DEFAULT_GUIDE_PORT = 8474
# The served guide's first runnable block is replaced by the run's own :param lines, and
# each block naming a file (`data-file="NAME"`) is filled with that file: the style and the
# saved queries have one home, the files next to the guide.
_PARAMS_BLOCK = re.compile(r'(<pre class="code runnable dacg-params">)(.*?)(</pre>)', re.S)
_FILE_BLOCK = re.compile(r'(<pre class="code runnable" data-file="([\w.]+)">)(</pre>)')


def browser_dir() -> Path:
    """The folder holding the saved queries, the style and the guide."""
    return shipped("cypher/browser")


def saved_query(name: str) -> str:
    """The text of cypher/browser/NAME.cypher, as a user pastes it."""
    if name not in SAVED_QUERIES:
        raise ValueError(f"no saved Browser query named {name!r}")
    return (browser_dir() / f"{name}.cypher").read_text(encoding="utf-8")


def cypher_string(value: str) -> str:
    """A single-quoted Cypher string literal for `value` (names may hold quotes)."""
    escaped = value.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"


def default_browser_url(neo4j_uri: str | None) -> str:
    """Browser on the Bolt host, port 7474 (docker-compose); localhost without a URI."""
    host = (urlsplit(neo4j_uri).hostname if neo4j_uri else None) or "localhost"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{DEFAULT_HTTP_PORT}/browser/"


def browser_link(browser_url: str, bolt_uri: str | None = None, user: str = "neo4j",
                 guide_url: str | None = None) -> str:
    """`browser_url` with the connect form pre-filled (`dbms=`; never a password, and no
    credentials a URI may hold) and, when given, the guide opened at start (`cmd=guide`)."""
    base = redact_uri(browser_url)
    base = base if base.endswith("/") else base + "/"
    query: list[str] = []
    if bolt_uri:
        parts = urlsplit(redact_uri(bolt_uri))
        query.append("dbms=" + quote(f"{parts.scheme}://{user}@{parts.netloc}", safe=""))
        query.append("preselectAuthMethod=NATIVE")
    if guide_url:
        query += ["cmd=guide", "arg=" + quote(guide_url, safe="")]
    return base + ("?" + "&".join(query) if query else "")


def param_lines(run_id: str, source: str | None = None, target: str | None = None,
                kg: str = DEFAULT_NAMESPACE) -> list[str]:
    """The `:param` lines the saved queries need for `run_id`. Source and target are names,
    turned into entity ids as `dacg query` does; head/tail (the edge whose evidence is
    shown) start as source/target. Raises InvalidEvidence for a bad run id or name."""
    values = {"run": check_namespace(run_id)}
    if source is not None:
        values["source"] = Entity.from_name(source, "source").id
    if target is not None:
        values["target"] = Entity.from_name(target, "target").id
    if source is not None and target is not None:
        values["head"], values["tail"] = values["source"], values["target"]
    values["kg"] = check_namespace(kg)
    lines = [f":param {key} => {cypher_string(value)};" for key, value in values.items()]
    # exp(-rho * hops) for 0, 1, 2 hops, the factors the answer engine's paths use
    discount = ", ".join(repr(factor) for factor in hop_discounts())
    return [*lines, f":param discount => [{discount}];"]


def guide_html(params: list[str] | None = None) -> str:
    """The guide as served: its style and query blocks filled from `dacg.grass` and the
    saved queries, and its parameter block showing `params` (else the example values)."""
    def block(match: re.Match[str]) -> str:
        name = match.group(2)
        shown = (":style " + (browser_dir() / STYLE_FILE).read_text(encoding="utf-8")
                 if name == STYLE_FILE else saved_query(name.removesuffix(".cypher")))
        return match.group(1) + html.escape(shown.strip(), quote=False) + match.group(3)

    text = _FILE_BLOCK.sub(block, (browser_dir() / GUIDE_FILE).read_text(encoding="utf-8"))
    if params:
        lines = html.escape("\n".join(params), quote=False)
        text = _PARAMS_BLOCK.sub(lambda m: m.group(1) + lines + m.group(3), text, count=1)
    return text


def browse_instructions(run_id: str, browser_url: str, source: str | None = None,
                        target: str | None = None, *, bolt_uri: str | None = None,
                        user: str = "neo4j", guide_url: str | None = None) -> str:
    """What `dacg browse RUN_ID` prints: the URL to open, the `:param` lines to paste and
    where the saved queries, the style and the guide are."""
    folder = browser_dir()
    style = " ".join((folder / STYLE_FILE).read_text(encoding="utf-8").split())
    lines = [f"Neo4j Browser for run {run_id!r}:",
             f"  {browser_link(browser_url, bolt_uri, user, guide_url)}",
             "  (log in as user "
             f"{user!r} with your NEO4J_PASSWORD; it is never put in the URL)",
             "",
             "1. Paste these lines into the Browser editor and run them (Ctrl+Enter):",
             *(f"  {line}" for line in param_lines(run_id, source, target))]
    if source is None or target is None:
        lines.append("  (add --intervention and --outcome for the path and evidence queries)")
    lines += ["", "2. Style (colours, captions with polarity and belief): paste this line, "
              f"or drag {folder / STYLE_FILE} onto Browser:", f"  :style {style}", "",
              f"3. Saved queries (paste a file, or drop it onto Browser): {folder}/"]
    lines += [f"  {name}.cypher" for name in SAVED_QUERIES]
    if guide_url:
        lines += ["", f"4. Guide (opens with the URL above): :guide {guide_url}"]
    else:
        lines += ["", "4. Guide: run `dacg browse RUN_ID --serve` and the Browser URL opens it"]
    return "\n".join(lines)


class _Handler(SimpleHTTPRequestHandler):
    """Static files with CORS (Browser fetches guides cross-origin with custom headers)."""

    params: list[str] = []

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Headers", "*")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        self.send_header("Access-Control-Allow-Methods", "GET, OPTIONS")
        self.end_headers()

    def do_GET(self) -> None:
        if urlsplit(self.path).path.lstrip("/") != GUIDE_FILE:
            super().do_GET()
            return
        data = guide_html(self.params).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass


def serve_browser_files(params: list[str], port: int = DEFAULT_GUIDE_PORT,
                        host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """Start serving cypher/browser/ on host:port in a daemon thread (port 0: any free
    one); the guide's parameter block shows `params`. Stop with `.shutdown()`."""
    handler = type("BrowserFiles", (_Handler,), {"params": list(params)})
    server = ThreadingHTTPServer((host, port), partial(handler, directory=str(browser_dir())))
    threading.Thread(target=server.serve_forever, name="dacg-browse", daemon=True).start()
    return server


def guide_url(server: ThreadingHTTPServer) -> str:
    """The guide's URL on `localhost` (on Browser's default remote-content allowlist)."""
    return f"http://localhost:{server.server_address[1]}/{GUIDE_FILE}"


def _until_interrupted() -> None:
    threading.Event().wait()  # Ctrl-C raises KeyboardInterrupt here


def run_browse(run_id: str, source: str | None, target: str | None, browser_url: str,
               bolt_uri: str | None, user: str, serve: bool, port: int,
               echo: Callable[[str], None] = print,
               wait: Callable[[], None] = _until_interrupted) -> None:
    """`dacg browse`: print the instructions; with `serve`, also serve the guide and style
    on localhost:port until Ctrl-C (`wait` returns). Raises InvalidEvidence (bad run id or
    name) and OSError (port taken) for the caller to report."""
    param_lines(run_id, source, target)  # validate before anything starts
    if not serve:
        echo(browse_instructions(run_id, browser_url, source, target, bolt_uri=bolt_uri,
                                 user=user))
        return
    server = serve_browser_files(param_lines(run_id, source, target), port)
    try:
        echo(browse_instructions(run_id, browser_url, source, target, bolt_uri=bolt_uri,
                                 user=user, guide_url=guide_url(server)))
        echo("Serving the guide and style; press Ctrl-C to stop.")
        wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()

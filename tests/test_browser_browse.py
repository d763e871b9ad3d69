"""`dacg browse` logic (pipeline/browse.py): URL, `:param` lines, instructions, file server."""

from __future__ import annotations

import math
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from urllib.error import HTTPError
from urllib.parse import parse_qs, urlsplit
from urllib.request import Request, urlopen

import pytest

from pipeline.browse import (
    SAVED_QUERIES,
    STYLE_FILE,
    browse_instructions,
    browser_dir,
    browser_link,
    cypher_string,
    default_browser_url,
    guide_url,
    param_lines,
    run_browse,
    serve_browser_files,
)
from pipeline.model import InvalidEvidence


def test_cypher_string_escapes_quotes_and_backslashes() -> None:
    assert cypher_string("crohn's \\ x") == "'crohn\\'s \\\\ x'"


# exp(-rho * hops) for 0, 1 and 2 hops with rho = 1, as repr prints them
DISCOUNT = (f":param discount => [1.0, {math.exp(-1)!r}, {math.exp(-2)!r}];")


def test_param_lines_normalise_names_like_dacg_query() -> None:
    assert param_lines("run-1", "Zinc ", "Common  Cold") == [
        ":param run => 'run-1';", ":param source => 'zinc';",
        ":param target => 'common cold';", ":param head => 'zinc';",
        ":param tail => 'common cold';", ":param kg => 'kg';", DISCOUNT]
    assert param_lines("run-1") == [":param run => 'run-1';", ":param kg => 'kg';", DISCOUNT]


@pytest.mark.parametrize("run_id", ["", "x'}) DETACH DELETE n //", "a b"])
def test_bad_run_ids_are_rejected(run_id: str) -> None:
    with pytest.raises(InvalidEvidence):
        param_lines(run_id)


def test_browser_link_prefills_the_connect_form_and_opens_the_guide() -> None:
    link = browser_link("http://127.0.0.1:7474/browser", "neo4j://127.0.0.1:7687", "alice",
                        "http://localhost:8474/guide.html")
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("http", "127.0.0.1:7474", "/browser/")
    assert parse_qs(parts.query) == {
        "dbms": ["neo4j://alice@127.0.0.1:7687"], "preselectAuthMethod": ["NATIVE"],
        "cmd": ["guide"], "arg": ["http://localhost:8474/guide.html"]}
    assert browser_link("http://h:7474/browser/") == "http://h:7474/browser/"


def test_default_browser_url_follows_the_bolt_host() -> None:
    assert default_browser_url(None) == "http://localhost:7474/browser/"
    assert default_browser_url("bolt://db.example:7687") == "http://db.example:7474/browser/"
    assert default_browser_url("neo4j://[::1]:7687") == "http://[::1]:7474/browser/"


def test_instructions_name_params_style_and_every_saved_query() -> None:
    text = browse_instructions("run-abc", "http://localhost:7474/browser/", "zinc", "cold",
                               bolt_uri="bolt://localhost:7687")
    assert "dbms=bolt%3A%2F%2Fneo4j%40localhost%3A7687" in text
    assert "  :param run => 'run-abc';" in text.splitlines()
    style_line = next(line for line in text.splitlines() if line.startswith("  :style "))
    assert style_line.split()[1:] == (browser_dir() / STYLE_FILE).read_text().split()
    assert all(f"{name}.cypher" in text for name in SAVED_QUERIES)
    assert "password" not in text.lower().replace("neo4j_password", "")


@pytest.fixture
def files() -> Iterator[ThreadingHTTPServer]:
    server = serve_browser_files(param_lines("run-x", "Crohn's disease", "cold"), port=0)
    yield server
    server.shutdown()
    server.server_close()


def test_served_guide_carries_the_run_params_with_cors(files: ThreadingHTTPServer) -> None:
    origin = {"Origin": "http://127.0.0.1:7474"}
    preflight = Request(guide_url(files), method="OPTIONS", headers={
        **origin, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "pragma,cache-control"})
    with urlopen(preflight, timeout=10) as response:
        assert response.status == 204
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        assert response.headers["Access-Control-Allow-Headers"] == "*"
    with urlopen(Request(guide_url(files), headers=origin), timeout=10) as response:
        guide = response.read().decode()
        assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert ("<pre class=\"code runnable dacg-params\">:param run =&gt; 'run-x';\n"
            ":param source =&gt; 'crohn\\'s disease';\n") in guide
    assert "'run-abc'" not in guide.split("dacg-params", 1)[1].split("</pre>", 1)[0]
    base = guide_url(files).rsplit("/", 1)[0]
    with urlopen(f"{base}/{STYLE_FILE}", timeout=10) as response:
        assert response.read().decode() == (browser_dir() / STYLE_FILE).read_text()
    with pytest.raises(HTTPError):
        urlopen(f"{base}/../../README.md", timeout=10)


def test_run_browse_prints_and_serves_until_interrupted() -> None:
    printed: list[str] = []
    run_browse("run-1", None, None, "http://localhost:7474/browser/", None, "neo4j",
               serve=False, port=0, echo=printed.append)
    assert "4. Guide: run `dacg browse RUN_ID --serve`" in printed[0]
    with pytest.raises(InvalidEvidence):
        run_browse("bad id", None, None, "u", None, "neo4j", serve=True, port=0)

    served: list[str] = []

    def fetch_guide() -> None:
        url = next(line.split()[-1] for line in served[0].splitlines() if ":guide " in line)
        with urlopen(url, timeout=10) as response:
            served.append(response.read().decode())

    run_browse("run-1", None, None, "http://localhost:7474/browser/", None, "neo4j",
               serve=True, port=0, echo=served.append, wait=fetch_guide)
    assert served[1] == "Serving the guide and style; press Ctrl-C to stop."
    assert ":param run =&gt; 'run-1';" in served[2]

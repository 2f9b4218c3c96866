"""NPM-4: the npm package's browser build runs every chunker in headless Chromium.

``scripts/browser.mjs`` bundles the shipped build with ``node:crypto`` replaced by the pure
SHA-256 of ``src/sha256.ts``; this test loads both bundles in Debian's Chromium (the classic
script from a file, the ES module from a local HTTP server, as a site would serve it), runs
``chunkDocument`` under every strategy and ``hashText`` on every ``hash_text`` golden there,
and compares the answers with Python's. Console errors, exceptions and requests off the page
fail. Skipped without Node.js; the Chromium tests without Chromium.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chunkspec import chunk_document, document_from_text, hash_text
from tests import goldens
from tests.browser import Browser, chromium_path
from tests.typescript_port import PORT_DIR, Port, built

CHROMIUM = chromium_path()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium: the browser tests need Debian's chromium package "
    "(apt-get install chromium) or CHUNKSPEC_CHROMIUM=/path/to/chrome",
)
BROWSER_DIR = PORT_DIR / "dist" / "browser"
ROOT = PORT_DIR.parents[1]

#: Texts every strategy meets: the example page, hazards (astral, CRLF, NEL, BOM), pages.
TEXTS = [
    (ROOT / "examples" / "returns-policy.md").read_text("utf-8"),
    "# T \U0001f600\r\n\r\nOne. Two\x85three \ufeffx.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    "page one words\fpage two \U0001f600 words\fthree",
]
#: (JavaScript options, Python arguments, input format) per strategy.
OPTIONS: list[tuple[dict[str, Any], dict[str, Any], str]] = [
    ({"strategy": "heading", "maxTokens": 20}, {"max_tokens": 20}, "markdown"),
    ({"strategy": "structural", "maxTokens": 15}, {"max_tokens": 15}, "markdown"),
    (
        {"strategy": "heading", "maxTokens": 20, "minTokens": 0},
        {"max_tokens": 20, "min_tokens": 0},
        "markdown",
    ),
    (
        {"strategy": "structural", "maxTokens": 24, "minTokens": 6, "budgetIncludesHeadings": True},
        {"max_tokens": 24, "min_tokens": 6, "budget_includes_headings": True},
        "markdown",
    ),
    ({"strategy": "window", "maxTokens": 9}, {"max_tokens": 9}, "markdown"),
    (
        {"strategy": "window", "maxTokens": 40, "counter": "chars1"},
        {"max_tokens": 40, "counter": "chars1"},
        "markdown",
    ),
    ({"strategy": "pages", "maxTokens": 12}, {"max_tokens": 12}, "markdown"),
    (  # NPM-5: plain text when the caller says so
        {"strategy": "window", "maxTokens": 9, "inputFormat": "text"},
        {"max_tokens": 9},
        "text",
    ),
]


@pytest.fixture(scope="module")
def bundles() -> Port:
    """The browser bundles, built when missing or older than the shipped build."""
    port = built()
    index = PORT_DIR / "dist" / "src" / "index.js"
    script = PORT_DIR / "scripts" / "browser.mjs"
    outputs = [BROWSER_DIR / "chunkspec.js", BROWSER_DIR / "chunkspec.iife.js"]
    newest = max(index.stat().st_mtime, script.stat().st_mtime)
    if not all(p.is_file() and p.stat().st_mtime >= newest for p in outputs):
        subprocess.run([port.node, str(script)], cwd=PORT_DIR, check=True)
    return port


def _expected() -> tuple[list[list[Any]], list[Any]]:
    """The calls (text, options) and Python's records for each, then the hash goldens."""
    calls: list[list[Any]] = []
    records: list[Any] = []
    for n, text in enumerate(TEXTS):
        for js, python, input_format in OPTIONS:
            calls.append([text, {"docId": f"d{n}", **js}])
            document = document_from_text(text, doc_id=f"d{n}", input_format=input_format)
            chosen = chunk_document(document, js["strategy"], **python)
            records.append([r.to_dict() for r in chosen])
    return calls, records


#: Runs in the page: every call through ``lib``, then hashText of each golden text.
RUN = """
(function (lib, calls, texts) {
  return JSON.stringify({
    records: calls.map(function (c) { return lib.chunkDocument(c[0], c[1]); }),
    hashes: texts.map(function (t) {
      try { return lib.hashText(t); } catch (e) { return "error:" + e.name; }
    }),
    node: typeof process !== "undefined",
  });
})
"""


def _hash_cases() -> tuple[list[str], list[str]]:
    """The ``hash_text`` golden texts and their hashes (an error case as ``error:NAME``)."""
    texts, hashes = [], []
    for case in goldens.load_file("hash_text")["cases"]:
        text = case["input"]["text"]
        if not isinstance(text, str):
            continue
        texts.append(text)
        if "error" in case:
            hashes.append("error:ArgumentValueError")
        else:
            hashes.append(case["output"])
    return texts, hashes


def _check(result: dict[str, Any]) -> None:
    """The page's answers equal Python's, and no Node.js was there to help."""
    calls, records = _expected()
    texts, hashes = _hash_cases()
    assert result["node"] is False
    assert result["hashes"] == hashes
    for call, mine, theirs in zip(calls, result["records"], records, strict=True):
        assert mine == theirs, call[1]
    assert all(h == hash_text(t) for t, h in zip(texts, hashes, strict=True) if "error" not in h)


def _run(browser: Browser, library: str) -> dict[str, Any]:
    """Evaluate RUN in the page on ``library`` (a global expression)."""
    calls, _ = _expected()
    texts, _ = _hash_cases()
    expression = f"{RUN}({library}, {json.dumps(calls)}, {json.dumps(texts)})"
    result: dict[str, Any] = json.loads(browser.evaluate(expression))
    return result


def test_the_bundles_import_nothing_from_node(bundles: Port) -> None:
    """NPM-4: no ``node:`` module and no ``require`` in either bundle."""
    for name in ("chunkspec.js", "chunkspec.iife.js"):
        code = (BROWSER_DIR / name).read_text("utf-8")
        assert not re.search(r"[\"'`]node:[a-z_]+|\brequire\(", code), name


@needs_chromium
def test_the_classic_bundle_runs_in_chromium(bundles: Port, tmp_path: Path) -> None:
    """NPM-4: from a file, the IIFE bundle's global ``chunkspec`` answers as Python."""
    assert CHROMIUM is not None
    page = tmp_path / "page.html"
    bundle = (BROWSER_DIR / "chunkspec.iife.js").as_uri()
    page.write_text(f'<!DOCTYPE html><title>t</title><script src="{bundle}"></script>', "utf-8")
    with Browser(CHROMIUM) as browser:
        browser.open(page)
        _check(_run(browser, "chunkspec"))
        assert browser.problems() == []


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """A static file server that logs nothing."""

    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """A local HTTP server of the ESM bundle and a page importing it; the page's URL."""
    (tmp_path / "chunkspec.js").write_bytes((BROWSER_DIR / "chunkspec.js").read_bytes())
    (tmp_path / "index.html").write_text(
        '<!DOCTYPE html><title>t</title><link rel="icon" href="data:,">'
        '<script type="module">'
        'import * as lib from "./chunkspec.js"; window.lib = lib;</script>',
        "utf-8",
    )
    handler = functools.partial(_Quiet, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@needs_chromium
def test_the_module_bundle_runs_in_chromium(bundles: Port, served: str) -> None:
    """NPM-4: served over HTTP, the ESM bundle (the ``browser`` export) answers as Python."""
    assert CHROMIUM is not None
    with Browser(CHROMIUM) as browser:
        browser.open_url(served + "index.html")
        _check(_run(browser, "window.lib"))
        assert browser.problems(allowed=(served,)) == []


def test_the_browser_export_condition(bundles: Port) -> None:
    """NPM-4: package.json sends a browser bundler to the bundle, Node.js to dist/src."""
    exports = json.loads((PORT_DIR / "package.json").read_text("utf-8"))["exports"]["."]
    assert list(exports) == ["types", "browser", "import"]
    assert exports["browser"] == "./dist/browser/chunkspec.js"


@needs_chromium
def test_the_readme_html_example_runs(bundles: Port, tmp_path: Path) -> None:
    """NPM-4: the README's ``<script>`` example, the bundle at its path, chunks in Chromium."""
    assert CHROMIUM is not None
    readme = (PORT_DIR / "README.md").read_text("utf-8")
    (html,) = re.findall(r"^```html\n(.*?)^```$", readme, re.MULTILINE | re.DOTALL)
    bundle = BROWSER_DIR / "chunkspec.iife.js"
    page = tmp_path / "page.html"
    page.write_text(
        html.replace("node_modules/chunkspec/dist/browser/chunkspec.iife.js", bundle.as_uri())
    )
    with Browser(CHROMIUM) as browser:
        browser.open(page)
        got = json.loads(browser.evaluate("JSON.stringify(records)"))
        document = document_from_text("# Title\n\nSome text.", doc_id="page")
        want = chunk_document(document, "heading")  # SIZE-2's default merge, as the port's
        assert got == [r.to_dict() for r in want]
        assert browser.problems() == []

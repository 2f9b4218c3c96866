"""The playground page (docs/playground.md) in headless Chromium: what it draws is Python's.

The page's HTML (its ``#chunkspec-playground`` block) is loaded with the npm package's
browser build and ``docs/assets/playground.js``; for each strategy the drawn spans are read
back from the DOM and compared with ``chunk_document``'s records for the page's sample text.
Console errors and requests off the page fail; a screenshot goes to docs/images. When
``mkdocs`` is on PATH the built site's page is checked too, served over HTTP. Skipped
without Chromium or Node.js.
"""

from __future__ import annotations

import functools
import html
import http.server
import itertools
import json
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from chunkspec import chunk_document, document_from_text
from tests.browser import Browser, chromium_path
from tests.typescript_port import PORT_DIR, built

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "playground.md"
SCRIPT = ROOT / "docs" / "assets" / "playground.js"
BUNDLE = PORT_DIR / "dist" / "browser" / "chunkspec.iife.js"

CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium: the browser tests need Debian's chromium package "
    "(apt-get install chromium) or CHUNKSPEC_CHROMIUM=/path/to/chrome",
)

#: The playground's choices: (select value, chunk_document arguments, input format).
CHOICES: list[tuple[str, dict[str, Any], str]] = [
    # SIZE-2: the port's chunkDocument merges small chunks by default, as chunk_document does.
    ("heading", {"strategy": "heading"}, "markdown"),
    ("structural", {"strategy": "structural"}, "markdown"),
    ("window", {"strategy": "window"}, "text"),
    ("chars", {"strategy": "window", "counter": "chars1"}, "text"),
    ("pages", {"strategy": "pages"}, "text"),
]

#: Read back: each chunk's pieces ``[start, end, text]`` and the whole drawn text.
READ_BACK = """
(function () {
  var chunks = {};
  var text = "";
  document.querySelectorAll("#chunkspec-playground .pg-text .seg").forEach(function (seg) {
    text += seg.textContent;
    var value = seg.getAttribute("data-chunks");
    (value ? value.split(" ") : []).forEach(function (c) {
      (chunks[c] = chunks[c] || []).push([Number(seg.getAttribute("data-start")),
        Number(seg.getAttribute("data-end")), seg.textContent]);
    });
  });
  return JSON.stringify({ready: document.getElementById("chunkspec-playground")
    .getAttribute("data-ready"), chunks: chunks, text: text});
})()
"""


def _sample() -> tuple[str, int]:
    """The page's sample text (the textarea's) and its budget (the number input's)."""
    source = PAGE.read_text("utf-8")
    (raw,) = re.findall(r"<textarea[^>]*>(.*?)</textarea>", source, re.DOTALL)
    (budget,) = re.findall(r'<input type="number"[^>]*value="(\d+)"', source)
    return html.unescape(raw), int(budget)


def _check(browser: Browser, choice: str, python: dict[str, Any], input_format: str) -> None:
    """Choose ``choice`` in the page; the drawn spans are chunk_document's records."""
    browser.evaluate(
        "(function () { var s = document.querySelector('#chunkspec-playground select');"
        f" s.value = {json.dumps(choice)}; s.dispatchEvent(new Event('change')); }})()"
    )
    drawn = json.loads(browser.evaluate(READ_BACK))
    text, budget = _sample()
    document = document_from_text(text, doc_id="playground", input_format=input_format)
    options = dict(python)
    records = chunk_document(document, options.pop("strategy"), max_tokens=budget, **options)
    assert drawn["ready"] == "true"
    assert drawn["text"] == text
    assert sorted(drawn["chunks"], key=int) == [str(i) for i in range(len(records))]
    for n, record in enumerate(records):
        pieces = drawn["chunks"][str(n)]
        assert (pieces[0][0], pieces[-1][1]) == (record.start, record.end), (choice, n)
        assert all(a[1] == b[0] for a, b in itertools.pairwise(pieces)), (choice, n)
        assert "".join(p[2] for p in pieces) == text[record.start : record.end]


@pytest.fixture(scope="module")
def bundle() -> Path:
    """The IIFE browser bundle, built when missing."""
    port = built()
    if not BUNDLE.is_file():
        subprocess.run([port.node, "scripts/browser.mjs"], cwd=PORT_DIR, check=True)
    return BUNDLE


def test_playground_draws_python_records(bundle: Path, tmp_path: Path) -> None:
    """Every strategy of the playground draws the records Python gives for its sample."""
    assert CHROMIUM is not None
    source = PAGE.read_text("utf-8")
    start = source.index('<div id="chunkspec-playground">')
    end = source.index('<script src="assets/chunkspec.iife.js">')
    page = tmp_path / "playground.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>playground</title>'
        f"</head><body>{source[start:end]}"
        f'<script src="{bundle.as_uri()}"></script><script src="{SCRIPT.as_uri()}"></script>'
        "</body></html>",
        "utf-8",
    )
    with Browser(CHROMIUM, width=1100, height=700) as browser:
        browser.open(page)
        for choice, python, input_format in CHOICES:
            _check(browser, choice, python, input_format)
        _check(browser, "heading", {"strategy": "heading"}, "markdown")
        shown = browser.evaluate(
            "(function () { var seg = document.querySelector(\".seg[data-chunks~='1']\");"
            " seg.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));"
            " return document.querySelector('#chunkspec-playground .pg-panel').textContent; })()"
        )
        assert "playground:1" in shown
        assert browser.problems() == []
        (ROOT / "docs" / "images").mkdir(exist_ok=True)
        browser.screenshot(ROOT / "docs" / "images" / "playground.png")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """A static file server that logs nothing."""

    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing."""


@pytest.mark.skipif(shutil.which("mkdocs") is None, reason="mkdocs is not on PATH")
def test_playground_in_the_built_site(bundle: Path, tmp_path: Path) -> None:
    """The site's playground.html (mkdocs build --strict, the hook's bundle) draws as above."""
    assert CHROMIUM is not None
    site = tmp_path / "site"
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(
        ["mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT, check=True, env=environment,
    )  # fmt: skip
    assert (site / "assets" / "chunkspec.iife.js").read_bytes() == bundle.read_bytes()
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with Browser(CHROMIUM) as browser:
            browser.open_url(origin + "playground.html")
            for choice, python, input_format in CHOICES:
                _check(browser, choice, python, input_format)
            assert browser.problems(allowed=(origin,)) == []
    finally:
        server.shutdown()
        server.server_close()

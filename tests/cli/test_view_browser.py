"""VIEW-2, VIEW-5 in a real browser: headless Chromium draws exactly the records' spans.

Each page is written by ``chunkspec view``, loaded in Debian's Chromium (tests/browser.py)
with a fresh profile and no network; the spans are read back from the DOM after the page's
script ran and compared with the records ``chunkspec chunk`` writes for the same flags.
Console errors, uncaught exceptions and any request off the page fail the test. The
screenshots of the bundled examples are written to docs/images (docs/view.md shows them).
Skipped, with the reason, when no Chromium is installed.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from chunkspec._cli import main
from chunkspec._text._documents import read_document
from tests.browser import Browser, chromium_path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
IMAGES = ROOT / "docs" / "images"

CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium: the browser tests need Debian's chromium package "
    "(apt-get install chromium) or CHUNKSPEC_CHROMIUM=/path/to/chrome",
)

#: Hostile text: markup, a script end tag, CR LF, astral characters, a form feed.
HOSTILE = (
    "# Title </script><script>window.chunkspecInjected = 1</script>\r\n\r\n"
    "Words & <b>tags</b> \U0001f600 emoji \u00e9t\u00e9 and more words here.\f"
    "Second page text with quotes \" ' and the end.\r\n"
)

#: Each case: name, input file (under examples/ or written), flags, screenshot or None.
CASES = [
    (
        "heading",
        "returns-policy.md",
        ["--strategy", "heading", "--max-tokens", "60", "--min-tokens", "0"],
        "view",
    ),
    ("window", "returns-policy.md", ["--strategy", "window", "--max-tokens", "40"], None),
    ("pdf-pages", "report.pdf", ["--strategy", "pages", "--max-tokens", "8"], "view-pdf"),
    ("hostile", None, ["--strategy", "heading", "--max-tokens", "8"], None),
    ("hostile-windows", None, ["--strategy", "window", "--max-tokens", "6"], None),
    (
        "web-page",
        "../tests/data/html/nodejs-single-executable-applications.html",
        ["--strategy", "structural", "--max-tokens", "120"],
        "view-html",
    ),
]

#: Read back from the DOM: per section, each chunk's drawn pieces and the whole text.
READ_BACK = """
Array.from(document.querySelectorAll("section.doc")).map(function (section) {
  var chunks = {};
  var text = "";
  section.querySelectorAll("pre.text .seg").forEach(function (seg) {
    text += seg.textContent;
    var start = Number(seg.getAttribute("data-start"));
    var end = Number(seg.getAttribute("data-end"));
    var value = seg.getAttribute("data-chunks");
    (value ? value.split(" ") : []).forEach(function (c) {
      (chunks[c] = chunks[c] || []).push([start, end, seg.textContent]);
    });
  });
  return {doc_id: section.getAttribute("data-doc-id"), chunks: chunks, text: text};
})
"""


def _records(path: Path) -> list[dict[str, Any]]:
    """The records of a JSON Lines file."""
    lines = path.read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


def _check_drawn(drawn: dict[str, Any], source: str, records: list[dict[str, Any]]) -> None:
    """Each record's pieces run contiguously from its start to its end, over its text."""
    assert drawn["text"] == source
    assert sorted(drawn["chunks"], key=int) == [str(i) for i in range(len(records))]
    for position, record in enumerate(records):
        pieces = drawn["chunks"][str(position)]
        assert pieces[0][0] == record["start"], record["id"]
        assert pieces[-1][1] == record["end"], record["id"]
        for (_, end, _), (start, _, _) in itertools.pairwise(pieces):
            assert end == start, f"{record['id']}: a hole in the drawn span at {end}"
        text = "".join(piece[2] for piece in pieces)
        assert text == source[record["start"] : record["end"]], record["id"]


@pytest.mark.parametrize(("name", "example", "flags", "shot"), CASES, ids=[c[0] for c in CASES])
def test_view_in_chromium(
    name: str, example: str | None, flags: list[str], shot: str | None, tmp_path: Path
) -> None:
    """VIEW-2, VIEW-5: the drawn spans equal the records; no console error, no request."""
    assert CHROMIUM is not None
    if example is None:
        document = tmp_path / f"{name}.md"
        document.write_bytes(HOSTILE.encode())
    else:
        document = EXAMPLES / example
    records_file = tmp_path / "records.jsonl"
    page = tmp_path / "view.html"
    assert main(["chunk", str(document), *flags, "-o", str(records_file)]) == 0
    assert main(["view", str(document), *flags, "-o", str(page)]) == 0
    redrawn = tmp_path / "redrawn.html"
    assert main(["view", str(records_file), "--source", str(document), "-o", str(redrawn)]) == 0
    records = _records(records_file)
    source = read_document(document).text
    assert records
    with Browser(CHROMIUM) as browser:
        for html in (page, redrawn):
            browser.open(html)
            assert browser.evaluate("document.body.getAttribute('data-ready')") == "true"
            (drawn,) = browser.evaluate(READ_BACK)
            _check_drawn(drawn, source, records)
            assert browser.evaluate("document.title.indexOf('chunkspec view') === 0")
        # Pointing at the second chunk's first piece shows it in the side panel.
        chosen = records[min(1, len(records) - 1)]
        shown = browser.evaluate(
            "(function () { var seg = document.querySelector(\".seg[data-chunks~='"
            + str(min(1, len(records) - 1))
            + "']\"); seg.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));"
            " return document.getElementById('panel').textContent; })()"
        )
        assert chosen["id"] in shown
        if document.suffix == ".html":  # VIEW-6: the panel shows the record's markup
            a, b = read_document(document).markup_span(chosen["start"], chosen["end"])
            assert f"markup: {a}-{b}" in shown
        assert browser.evaluate("window.chunkspecInjected === undefined")
        assert browser.problems() == []
        if shot is not None:
            IMAGES.mkdir(exist_ok=True)
            browser.screenshot(IMAGES / f"{shot}.png")

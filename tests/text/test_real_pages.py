"""Real pages nobody here wrote (tests/data/html/README.md): the HTML rules hold on them.

The Node.js page and its Markdown source give the same heading paths (HTML-7; the
Markdown read through markdown-it's HTML, whose titles have no backticks), every record of
every strategy satisfies the markup-span equation (HTML-21), and a code block inside a
list item keeps no stale white space (the bug the real pages found, HTML-6).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from properties.test_html import _placed_text, _runs_text

from chunkspec import SourceDocument, chunk_document, document_from_bytes, read_document

PAGES = Path(__file__).parent.parent / "data" / "html"


def _paths(document: SourceDocument) -> list[str]:
    """The heading paths of ``document``, in order."""
    stack: list[tuple[int, str]] = []
    out = []
    for block in document.blocks().blocks:
        if block.kind == "heading":
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, block.text))
            out.append(" > ".join(title for _, title in stack))
    return out


def test_markdown_and_html_renderings_agree_on_headings() -> None:
    """HTML-7, HTML-12: the page's heading paths are its Markdown source's."""
    source = PAGES / "nodejs-single-executable-applications.md"
    rendered = MarkdownIt("commonmark").enable("table").render(source.read_text("utf-8"))
    markdown = document_from_bytes(rendered.encode(), doc_id="md", name="md.html")
    page = read_document(source.with_suffix(".html"))
    assert _paths(page) == _paths(markdown)
    assert len(_paths(page)) == 17
    assert page.title == "Single executable applications | Node.js v20.20.2 Documentation"


@pytest.mark.parametrize("name", sorted(p.name for p in PAGES.glob("*.html")))
@pytest.mark.parametrize("strategy", ["heading", "structural", "recursive", "window"])
def test_every_record_maps_back(name: str, strategy: str) -> None:
    """HTML-21 on real pages: every record's markup span holds exactly its text."""
    document = read_document(PAGES / name)
    assert document.markup_map is not None
    runs = document.markup_map.runs()
    records = chunk_document(document, strategy=strategy, max_tokens=64)
    assert records
    for record in records:
        a, b = document.markup_span(record.start, record.end)
        got = _runs_text(runs, document.text, a, b, record.start, record.end)
        assert got == _placed_text(runs, document.text, record.start, record.end)


def test_code_in_a_list_item_keeps_no_stale_white_space() -> None:
    """HTML-6: a pre's trailing white space ends with its line, never reappears later."""
    page = read_document(PAGES / "nodejs-single-executable-applications.html")
    assert "Windows: \n" not in page.text
    assert "On systems other than Windows:\ncp $(command -v node) hello" in page.text

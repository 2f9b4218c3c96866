"""Properties of the HTML reader (docs/spec/html.md): the literal model, the text's shape,
the markup map's equation on generated pages and on broken markup, chunking pages."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chunkspec import chunk_document, document_from_bytes
from chunkspec._text._html._page import read_markup
from properties.html_model import model_blocks, serialize
from properties.strategies import html_pages

_HTML_KINDS = {"heading", "paragraph", "list", "definition", "table", "code", "quote"}


def _page(body: list[Any], entities: bool, doctype: bool = True) -> str:
    """A whole page around ``body``: doctype, a head with a title, the body."""
    head = "<!DOCTYPE html><html lang=en><head><title>T</title></head>" if doctype else ""
    return f"{head}<body>{serialize(body, entities)}</body></html>"


@given(html_pages(), st.booleans(), st.booleans())
def test_reader_equals_the_literal_model(body: list[Any], entities: bool, keep: bool) -> None:
    """HTML-4, HTML-5, HTML-6, HTML-7, HTML-8, HTML-9, HTML-10, HTML-11, HTML-12: the blocks
    of a generated page are the literal model's, kind, level and text, and the text is
    those blocks joined by blank lines."""
    page = read_markup(_page(body, entities), "d", keep_furniture=keep)
    got = [(b.kind, b.level, b.text) for b in page.parsed.blocks]
    assert got == model_blocks(body, keep)
    assert page.parsed.source == "\n\n".join(text for _, _, text in got)
    assert "HIDDENWORD" not in page.parsed.source  # HTML-5


def _mutations() -> st.SearchStrategy[list[tuple[str, int, str]]]:
    """Edits that break markup: a tag dropped, a stray or misnested tag, a comment, text in
    a table, a NUL, CRLF."""
    edit = st.tuples(
        st.sampled_from(["drop-tag", "insert", "crlf"]),
        st.integers(0, 10**6),
        st.sampled_from(
            ["</b>", "</p>", "<p>", "<b>", "</div>", "<!-- c -->", "<!---->", "stray text",
             "</td>", "<tr>", "\x00", "&amp", "&notit;", "<li>", "</table>", "<i><b>", "</i>"]
        ),
    )  # fmt: skip
    return st.lists(edit, max_size=6)


def _broken(markup: str, edits: list[tuple[str, int, str]]) -> str:
    """``markup`` with the edits applied, each at a position taken modulo its length."""
    for kind, at, piece in edits:
        tags = [m for m in re.finditer(r"<[^>]*>", markup)]
        if kind == "drop-tag" and tags:
            m = tags[at % len(tags)]
            markup = markup[: m.start()] + markup[m.end() :]
        elif kind == "insert":
            k = at % (len(markup) + 1)
            markup = markup[:k] + piece + markup[k:]
        elif kind == "crlf":
            markup = markup.replace("\n", "\r\n")
    return markup


def _runs_text(runs: list[tuple[int, int, int, int, bool]], text: str, a: int, b: int,
               start: int, end: int) -> str:  # fmt: skip
    """HTML-21's right side: the text whose markup lies in [a, b) (an exact run's characters
    one by one, any other run whole), clipped to [start, end)."""
    out = []
    for ts, te, ms, me, exact in runs:
        if exact:
            lo, hi = max(ms, a), min(me, b)
            if lo >= hi:
                continue
            ts, te = ts + lo - ms, ts + hi - ms
        elif not (a <= ms and me <= b and ms < me):
            continue
        lo, hi = max(ts, start), min(te, end)
        if lo < hi:
            out.append(text[lo:hi])
    return "".join(out)


def _placed_text(runs: list[tuple[int, int, int, int, bool]], text: str, start: int,
                 end: int) -> str:  # fmt: skip
    """HTML-21's left side: text[start:end] less the text in no run."""
    return "".join(text[max(ts, start) : min(te, end)] for ts, te, _, _, _ in runs
                   if max(ts, start) < min(te, end))  # fmt: skip


@given(html_pages(), st.booleans(), _mutations(), st.data())
def test_markup_span_equation_on_broken_markup(
    body: list[Any], entities: bool, edits: list[tuple[str, int, str]], data: st.DataObject
) -> None:
    """HTML-3, HTML-18, HTML-19, HTML-20, HTML-21: on any markup (generated pages broken by
    dropped, stray and misnested tags, comments, NULs, CRLF), exact runs are markup, runs
    go forward in both text and markup, blocks tile the text, and for any range the markup
    span holds the markup of exactly that range's placed text."""
    markup = _broken(_page(body, entities), edits)
    document = document_from_bytes(markup.encode("utf-8"), doc_id="d", name="p.html")
    text, source = document.text, document.markup
    assert document.markup_map is not None
    runs = document.markup_map.runs()
    last_text = last_markup = 0
    for ts, te, ms, me, exact in runs:
        assert last_text <= ts < te and last_markup <= ms <= me, (runs, markup)
        last_text, last_markup = te, me
        if exact:
            assert text[ts:te] == source[ms:me]
    css_space = " \t\n\f"  # HTML-4: NBSP and the other spaces are letters
    assert text == text.rstrip(css_space)
    for block in document.blocks().blocks:
        assert block.kind in _HTML_KINDS and block.text == text[block.start : block.end]
        assert not block.text.isspace() and block.text == block.text.rstrip(css_space)
        if block.kind != "code":  # HTML-6: a code block keeps its first line's indent
            assert block.text == block.text.lstrip(css_space)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    a, b = document.markup_span(start, end)
    assert 0 <= a <= b <= len(source)
    assert _runs_text(runs, text, a, b, start, end) == _placed_text(runs, text, start, end)


@given(html_pages(), st.sampled_from(["heading", "structural", "recursive", "window"]))
def test_records_map_back_to_their_markup(body: list[Any], strategy: str) -> None:
    """HTML-16, HTML-17, HTML-21: every strategy chunks a page; each record's markup span
    holds exactly its text's markup, the spans of records never go backwards, and on these
    well-formed pages the span read alone as a page gives the record's text up to white
    space (a span holding furniture or a permalink excepted: their rules depend on the
    sections and the heading around them)."""
    markup = _page(body, entities=False)
    document = document_from_bytes(markup.encode("utf-8"), doc_id="d", name="p.html")
    if not document.text.strip():
        return
    records = chunk_document(document, strategy=strategy, max_tokens=8)
    assert document.markup_map is not None
    runs = document.markup_map.runs()
    previous = 0
    for record in records:
        slice_ = record.prefix + document.text[record.start : record.end]
        assert record.text.split() == slice_.split()  # RECORD-2
        a, b = document.markup_span(record.start, record.end)
        assert previous <= a <= b
        previous = a
        assert _runs_text(runs, document.text, a, b, record.start, record.end) == _placed_text(
            runs, document.text, record.start, record.end
        )
        fragment = document.markup[a:b]
        furniture = re.search(r"<(nav|aside|header|footer)\b|cookie|role=|href=.#", fragment)
        if a < b and furniture is None:
            alone = read_markup(fragment, "d").parsed.source
            placed = _placed_text(runs, document.text, record.start, record.end)
            assert "".join(alone.split()) == "".join(placed.split())

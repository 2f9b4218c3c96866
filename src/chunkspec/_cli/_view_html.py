"""The one self-contained HTML page of ``chunkspec view`` (rules VIEW-2 to VIEW-5).

The text is drawn on the server side, once, as segments (``_view_layout.segments``) with
their offsets in ``data-start``/``data-end`` (code points, as the records count) and the
chunks covering them in ``data-chunks``; the page works without script. A small inline
script adds the side panel that follows the pointer. Nothing is fetched (VIEW-5).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass

from .._records._record import ChunkRecord
from .._version import __version__
from ._view_layout import Segment, budget_of, histogram, is_crumb, segments

__all__ = ["ViewDocument", "render_page", "script_json"]


@dataclass(frozen=True, slots=True)
class ViewDocument:
    """One document to draw: its doc id, title, source text and its records, in order;
    for a web page, its ``markup`` and each record's markup span (VIEW-6, HTML-21)."""

    doc_id: str
    title: str
    text: str
    records: Sequence[ChunkRecord]
    markup: str = ""
    markup_spans: Sequence[tuple[int, int]] = ()


#: VIEW-6: the most markup the panel shows of one record (the span is given whole).
MARKUP_SHOWN = 4000


#: JSON inside ``<script>``: these would end the element or break a line in old parsers.
_SCRIPT_SAFE = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def script_json(value: object) -> str:
    """Return ``value`` as JSON that cannot end a ``<script>`` element (VIEW-5)."""
    return json.dumps(value, ensure_ascii=False).translate(_SCRIPT_SAFE)


def _text(value: str) -> str:
    """Escape ``value`` as element text; CR as a reference, which HTML parsing keeps (VIEW-2)."""
    return html.escape(value, quote=False).replace("\r", "&#13;").replace("\0", "&#65533;")


def _attr(value: object) -> str:
    """Escape ``value`` for a double-quoted attribute."""
    return html.escape(str(value), quote=True).replace("\r", "&#13;")


def _pages(record: ChunkRecord) -> str:
    """``"3"``, ``"3-4"`` or ``""`` for a record's pages."""
    if record.page_start is None:
        return ""
    if record.page_end is None or record.page_end == record.page_start:
        return str(record.page_start)
    return f"{record.page_start}-{record.page_end}"


def _paged(text: str, page: int) -> str:
    """``text`` escaped, each form feed (PAGE-2) followed by an empty, labelled page rule.

    The rule holds no text (its label is CSS generated content), so the piece's text stays
    the source's exactly (VIEW-2).
    """
    parts = text.split("\f")
    out = [_text(parts[0])]
    for offset, part in enumerate(parts[1:], start=1):
        out.append(f'\f<span class="page-break" data-page="{page + offset}"></span>{_text(part)}')
    return "".join(out)


def _segment(piece: Segment, text: str, marks: list[set[str]], page: int) -> str:
    """One ``<span>`` of the drawn text (VIEW-2, VIEW-3); ``page`` is the page it starts on."""
    classes = ["seg"]
    if piece.start == piece.end:
        classes.append("empty")
    if not piece.chunks:
        classes.append("gap")
    elif len(piece.chunks) > 1:
        classes.append("overlap")
    else:
        classes.append(f"k{piece.chunks[0] % 2}")
    for mark in ("oversized", "crumb"):
        if any(mark in marks[c] for c in piece.chunks):
            classes.append(mark)
    chunks = " ".join(map(str, piece.chunks))
    return (
        f'<span class="{" ".join(classes)}" data-start="{piece.start}" data-end="{piece.end}" '
        f'data-chunks="{chunks}">{_paged(text[piece.start : piece.end], page)}</span>'
    )


def _summary(document: ViewDocument, marks: list[set[str]], pieces: list[Segment]) -> str:
    """VIEW-4: counts, marks, overlap and gap sizes, and the token histogram."""
    records = document.records
    overlap = sum(p.end - p.start for p in pieces if len(p.chunks) > 1)
    gap = sum(
        1 for p in pieces if not p.chunks for c in document.text[p.start : p.end] if not c.isspace()
    )
    budgets = sorted({b for b in (budget_of(r.strategy) for r in records) if b is not None})
    strategies = sorted({r.strategy for r in records})
    facts = [
        ("chunks", str(len(records))),
        ("tokens", str(sum(r.tokens for r in records))),
        ("budget", ", ".join(map(str, budgets)) or "unknown"),
        ("oversized", str(sum("oversized" in m for m in marks))),
        ("crumbs", str(sum("crumb" in m for m in marks))),
        ("overlap", f"{overlap} characters"),
        ("uncovered", f"{gap} non-space characters"),
        ("strategy", ", ".join(strategies) or "none"),
        ("counter", ", ".join(sorted({r.counter for r in records})) or "none"),
    ]
    items = "".join(
        f'<div><dt>{_text(k)}</dt><dd data-fact="{_attr(k)}">{_text(v)}</dd></div>'
        for k, v in facts
    )
    bars = histogram(records)
    most = max((n for _, n in bars), default=0) or 1
    columns = "".join(
        f'<div class="bar" title="{_attr(label)} tokens: {n} chunks">'
        f'<span class="n">{n}</span><span class="fill" style="height:{round(60 * n / most)}px">'
        f'</span><span class="label">{_text(label)}</span></div>'
        for label, n in bars
    )
    return (
        f'<dl class="facts">{items}</dl>'
        f'<div class="histogram" aria-label="chunks by tokens">{columns}</div>'
    )


def _table(records: Sequence[ChunkRecord], marks: list[set[str]]) -> str:
    """The chunk list: one row per record, the marks as words (VIEW-3)."""
    rows = []
    for position, record in enumerate(records):
        path = " > ".join(record.heading_path)
        rows.append(
            f'<tr data-chunk="{position}" class="k{position % 2}">'
            f"<td>{record.index}</td><td>{_text(record.kind)}</td><td>{record.tokens}</td>"
            f"<td>{record.start}-{record.end}</td><td>{_text(_pages(record))}</td>"
            f"<td>{_text(path)}</td><td>{_text(' '.join(sorted(marks[position])))}</td></tr>"
        )
    return (
        '<table class="chunks"><thead><tr><th>#</th><th>kind</th><th>tokens</th>'
        "<th>span</th><th>pages</th><th>heading path</th><th>marks</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _metadata(
    record: ChunkRecord, marks: set[str], markup: str = "", span: tuple[int, int] | None = None
) -> dict[str, object]:
    """What the side panel shows of one record (VIEW-3; VIEW-6: a page's markup)."""
    shown: dict[str, object] | None = None
    if span is not None:
        a, b = span
        shown = {"start": a, "end": b, "source": markup[a : min(b, a + MARKUP_SHOWN)]}
    return {
        "markup": shown,
        "id": record.id,
        "index": record.index,
        "kind": record.kind,
        "heading_path": list(record.heading_path),
        "tokens": record.tokens,
        "start": record.start,
        "end": record.end,
        "pages": _pages(record),
        "parent_id": record.parent_id,
        "section": record.section,
        "prefix": record.prefix,
        "marks": sorted(marks),
    }


def _pages_at(text: str, pieces: Sequence[Segment]) -> list[int]:
    """The page (PAGE-2: one plus the form feeds before it) each piece starts on, counted
    once over the text as the pieces go forward (was: counted from the start for every
    piece, quadratic on a long document)."""
    pages: list[int] = []
    page, at = 1, 0
    for piece in pieces:
        if piece.start > at:
            page += text.count("\f", at, piece.start)
            at = piece.start
        pages.append(page)
    return pages


def _document(number: int, document: ViewDocument) -> tuple[str, list[dict[str, object]]]:
    """One document's section and its panel metadata."""
    records = document.records
    marks: list[set[str]] = []
    for record in records:
        mark = set()
        if record.oversized:
            mark.add("oversized")
        if is_crumb(record):
            mark.add("crumb")
        marks.append(mark)
    pieces = segments(len(document.text), [(r.start, r.end) for r in records])
    text = document.text
    drawn = "".join(
        _segment(p, text, marks, page)
        for p, page in zip(pieces, _pages_at(text, pieces), strict=True)
    )
    section = (
        f'<section class="doc" id="doc-{number}" data-doc="{number}" '
        f'data-doc-id="{_attr(document.doc_id)}">'
        f"<h2>{_text(document.title)} <small>{_text(document.doc_id)}</small></h2>"
        f"{_summary(document, marks, pieces)}"
        f'<pre class="text">{drawn}</pre>'
        f"<details><summary>chunks</summary>{_table(records, marks)}</details></section>"
    )
    spans: Sequence[tuple[int, int] | None] = document.markup_spans or [None] * len(records)
    return section, [
        _metadata(r, m, document.markup, s) for r, m, s in zip(records, marks, spans, strict=True)
    ]


def render_page(documents: Sequence[ViewDocument]) -> str:
    """VIEW-2..VIEW-5: the whole page for ``documents``, one section each."""
    sections = []
    data = []
    for number, document in enumerate(documents):
        section, metadata = _document(number, document)
        sections.append(section)
        data.append({"doc_id": document.doc_id, "chunks": metadata})
    title = documents[0].title if len(documents) == 1 else f"{len(documents)} documents"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="data:,">'  # VIEW-5: not even a favicon is fetched
        f'<meta name="generator" content="chunkspec {__version__}">'
        f"<title>chunkspec view: {_text(title)}</title><style>{_STYLE}</style></head>"
        '<body><main><header><h1>chunkspec view</h1><p class="legend">'
        '<span class="seg k0">chunk</span> <span class="seg k1">next chunk</span> '
        '<span class="seg overlap">overlap</span> <span class="seg gap">not in any chunk</span> '
        '<span class="seg k0 oversized">oversized</span> '
        '<span class="seg k0 crumb">crumb (under 1/8 of the budget)</span></p></header>'
        f"{''.join(sections)}</main>"
        '<aside id="panel"><p class="hint">Point at the text to see its chunks.</p></aside>'
        f'<script type="application/json" id="chunkspec-data">{script_json(data)}</script>'
        f"<script>{_SCRIPT}</script></body></html>\n"
    )


_STYLE = """
body{margin:0;font:14px/1.45 system-ui,sans-serif;color:#1d2330;display:flex}
main{flex:1;min-width:0;padding:0 1.2em 2em}
aside{width:22em;flex:none;position:sticky;top:0;height:100vh;overflow:auto;
border-left:1px solid #ccd;padding:.6em 1em;box-sizing:border-box;background:#f7f8fb}
h1{font-size:1.3em;margin:.6em 0 .2em}h2{font-size:1.1em;margin:1.2em 0 .4em}
h2 small{color:#667;font-weight:normal}
.legend .seg{padding:0 .3em}
pre.text{white-space:pre-wrap;word-wrap:break-word;font:13px/1.6 ui-monospace,monospace;
border:1px solid #ccd;padding:.8em;background:#fff}
.seg.k0{background:#dbe9ff}.seg.k1{background:#ffe8c7}
.seg.overlap{background:repeating-linear-gradient(45deg,#dbe9ff 0 4px,#ffe8c7 4px 8px);
box-shadow:inset 0 -2px #a05a00}
.seg.gap{background:none;color:#778}
.seg.oversized{outline:2px solid #c0392b;outline-offset:-1px}
.seg.crumb{text-decoration:underline wavy #8e44ad}
.seg.empty{display:inline-block;width:0;border-left:3px solid #8e44ad;height:1em;
vertical-align:middle}
.seg.sel{background:#ffd84d}
.page-break::after{content:"page " attr(data-page);display:block;margin:.3em 0;
border-top:1px dashed #99a;color:#778;font:11px system-ui,sans-serif}
dl.facts{display:flex;flex-wrap:wrap;gap:.2em 1.2em;margin:.3em 0}
dl.facts div{display:flex;gap:.3em}dt{color:#667}dd{margin:0;font-weight:600}
.histogram{display:flex;align-items:flex-end;gap:4px;margin:.5em 0}
.bar{display:flex;flex-direction:column;align-items:center;font-size:11px;width:4.5em}
.bar .fill{display:block;width:70%;background:#5b8def;min-height:1px}
.bar .label{color:#667}
table.chunks{border-collapse:collapse;font-size:12px}
table.chunks td,table.chunks th{border:1px solid #dde;padding:2px 6px;text-align:left}
table.chunks tr.k0{background:#eef4ff}table.chunks tr.k1{background:#fff5e6}
table.chunks tr.sel{background:#ffd84d}
#panel .chunk{border:1px solid #ccd;border-radius:4px;padding:.4em .6em;margin:.5em 0;
background:#fff}
#panel .chunk b{display:block}#panel .mark{color:#c0392b;font-weight:600}
#panel pre.markup{white-space:pre-wrap;word-break:break-all;font:11px/1.4 ui-monospace,
monospace;background:#f2f2f6;max-height:16em;overflow:auto;margin:.3em 0 0;padding:.3em}
"""

_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("chunkspec-data").textContent);
  var panel = document.getElementById("panel");
  var selected = [];
  function line(label, value) {
    var p = document.createElement("div");
    p.textContent = label + ": " + value;
    return p;
  }
  function card(chunk) {
    var box = document.createElement("div");
    box.className = "chunk";
    var head = document.createElement("b");
    head.textContent = chunk.id + " (" + chunk.kind + ")";
    box.appendChild(head);
    box.appendChild(line("tokens", chunk.tokens));
    box.appendChild(line("span", chunk.start + "-" + chunk.end));
    if (chunk.heading_path.length) {
      box.appendChild(line("heading path", chunk.heading_path.join(" > ")));
    }
    if (chunk.pages) { box.appendChild(line("pages", chunk.pages)); }
    if (chunk.parent_id !== null) { box.appendChild(line("parent", chunk.parent_id)); }
    if (chunk.section !== null) { box.appendChild(line("section", chunk.section)); }
    if (chunk.prefix) { box.appendChild(line("prefix", chunk.prefix)); }
    if (chunk.markup) {
      box.appendChild(line("markup", chunk.markup.start + "-" + chunk.markup.end));
      var source = document.createElement("pre");
      source.className = "markup";
      source.textContent = chunk.markup.source;
      box.appendChild(source);
    }
    if (chunk.marks.length) {
      var m = line("marks", chunk.marks.join(", "));
      m.className = "mark";
      box.appendChild(m);
    }
    return box;
  }
  function select(section, chunks) {
    selected.forEach(function (el) { el.classList.remove("sel"); });
    selected = [];
    var doc = data[Number(section.getAttribute("data-doc"))];
    while (panel.firstChild) { panel.removeChild(panel.firstChild); }
    var title = document.createElement("p");
    title.textContent = doc.doc_id;
    panel.appendChild(title);
    chunks.forEach(function (n) {
      panel.appendChild(card(doc.chunks[n]));
      var drawn = "tr[data-chunk='" + n + "'], .seg[data-chunks~='" + n + "']";
      section.querySelectorAll(drawn).forEach(function (el) {
        el.classList.add("sel");
        selected.push(el);
      });
    });
    if (!chunks.length) { panel.appendChild(line("chunks", "none: this text is in no chunk")); }
  }
  function chunksOf(el) {
    var value = el.getAttribute("data-chunks");
    return value ? value.split(" ").map(Number) : [];
  }
  document.querySelectorAll("section.doc").forEach(function (section) {
    section.addEventListener("mouseover", function (event) {
      var seg = event.target.closest(".seg");
      if (seg && section.contains(seg)) { select(section, chunksOf(seg)); }
    });
    section.addEventListener("click", function (event) {
      var row = event.target.closest("tr[data-chunk]");
      if (!row) { return; }
      var n = Number(row.getAttribute("data-chunk"));
      select(section, [n]);
      var first = section.querySelector(".seg[data-chunks~='" + n + "']");
      if (first) { first.scrollIntoView({block: "center"}); }
    });
  });
  document.body.setAttribute("data-ready", "true");
})();
"""

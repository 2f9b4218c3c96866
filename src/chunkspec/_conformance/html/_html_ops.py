"""``read_html``: a page's markup to what the reader makes of it (HTML-1..HTML-21).

The answer is the page as ``read_markup(markup, "d")`` reads it, in wire form: ``text`` (the
rendered page, HTML-3), ``blocks`` (``kind``, ``level``, ``start``, ``end``, ``header_rows``:
HTML-7, HTML-8, HTML-10; offsets in code points of the text), ``segments`` (each run of the
text and the markup span it came from, ``text_start``, ``text_end``, ``markup_start``,
``markup_end`` and ``exact``: HTML-18; markup offsets in code points of the markup as given,
CRs and all), ``title`` (HTML-13) and ``meta`` (HTML-14). ``keep_furniture`` (default false)
keeps navigation, banners and asides (HTML-11, HTML-12).

The vectors are ``data/read_html.json``: fixed pages (tag soup, implied end tags, the
adoption agency, foster parenting, legacy entities, CRLF, NUL, tables, lists, furniture,
permalinks, astral characters) with the rules each exercises and the answer, pinned.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..._core._validate import require_str
from ..._errors import ArgumentTypeError
from ..._text._html._page import read_markup

__all__ = ["VECTORS_FILE", "html_vectors", "read_html"]

#: The fixed cases of ``read_html`` (CONF-1): ids, rules, notes, inputs and answers.
VECTORS_FILE = Path(__file__).resolve().parent.parent / "data" / "read_html.json"


def read_html(
    markup: str, keep_furniture: bool = False, *, scripting: bool = True
) -> dict[str, Any]:
    """The page ``markup`` as the reader reads it (HTML-1), in wire form (``scripting``:
    the parser's flag, off only in the kit's model of a port that forgot it)."""
    require_str("markup", markup)
    if not isinstance(keep_furniture, bool):
        raise ArgumentTypeError("keep_furniture", "a bool", keep_furniture)
    page = read_markup(markup, "d", keep_furniture=keep_furniture, scripting=scripting)
    blocks = [
        {
            "kind": b.kind,
            "level": b.level,
            "start": b.start,
            "end": b.end,
            "header_rows": int(b.attributes.get("header_rows", 0)),
        }
        for b in page.parsed.blocks
    ]
    segments = [
        {"text_start": a, "text_end": b, "markup_start": s, "markup_end": e, "exact": x}
        for a, b, s, e, x in page.markup_map.runs()
    ]
    return {
        "text": page.parsed.source,
        "blocks": blocks,
        "segments": segments,
        "title": page.title,
        "meta": dict(page.meta),
    }


def html_vectors() -> list[dict[str, Any]]:
    """The cases of ``data/read_html.json`` as vectors (``source`` ``html``)."""
    data = json.loads(VECTORS_FILE.read_text("utf-8"))
    return [{**case, "source": "html"} for case in data["cases"]]

"""One HTML page read: markup to text, blocks, title, metadata and markup map (HTML-1..HTML-21)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..._core._access_keys import ACCESS_KEYS
from ..._errors import InputError
from .._blocks import Document
from ._markup_map import MarkupMap
from ._render import render_page

__all__ = ["HtmlPage", "read_markup"]


@dataclass(frozen=True, slots=True)
class HtmlPage:
    """A page as the reader made it: ``parsed.source`` is its text (HTML-3)."""

    parsed: Document
    title: str | None
    meta: dict[str, str]
    access_names: frozenset[str]
    markup_map: MarkupMap
    unplaced: int


def read_markup(
    markup: str, doc_id: str, *, keep_furniture: bool = False, scripting: bool = True
) -> HtmlPage:
    """Read the page ``markup`` (HTML-1): parse it as a browser does and render its text.

    ``scripting`` is the parser's scripting flag: on, as HTML-5 reads pages; the kit turns
    it off only to model a port that forgot it.
    """
    try:
        import turbohtml
    except ImportError:  # pragma: no cover - a core dependency, absent only on Python 3.10
        raise InputError(
            f"{doc_id}: reading HTML needs the turbohtml package (Python 3.11 or later)"
        ) from None
    # HTML §13.2.3.5: the input stream normalizes CRLF and CR to LF before tokenizing; we
    # do it first so the parser's offsets index this string, and keep where each CRLF was.
    carriage: list[int] = []  # LFs that were CRLF (their CR removed)
    lone: list[int] = []  # LFs that were a lone CR (same length)
    if "\r" in markup:
        removed = 0
        at = markup.find("\r")
        while at >= 0:
            if markup.startswith("\r\n", at):
                carriage.append(at - removed)
                removed += 1
            else:
                lone.append(at - removed)
            at = markup.find("\r", at + 1)
        normal = markup.replace("\r\n", "\n").replace("\r", "\n")
    else:
        normal = markup
    try:
        # HTML-5: scripting on, as a browser that runs scripts parses: a noscript's
        # content is raw text (never text), wherever it stands, head or body.
        tree = turbohtml.parse(normal, source_locations=True, scripting=scripting)
    except UnicodeError:  # a lone surrogate in a name: only a str given by hand holds one
        raise InputError(f"{doc_id}: the markup holds a lone surrogate") from None
    page = render_page(tree, normal, keep_furniture, frozenset(ACCESS_KEYS))
    access = page.access_names | _access_tags(normal)
    parsed = Document(doc_id, page.text, page.blocks)
    mapping = MarkupMap(page.segments, carriage, page.unplaced, lone)
    return HtmlPage(parsed, page.title, page.meta, access, mapping, page.unplaced)


#: HTML-15: markup that reads as a ``meta`` naming an access key, wherever it stands (a
#: comment, a script's string, a noscript's raw text): found, so never dropped unseen.
_ACCESS_TAG = re.compile(
    r"<meta\b[^>]*?\bname\s*=\s*[\"']?\s*(" + "|".join(ACCESS_KEYS) + r")\b", re.IGNORECASE
)


def _access_tags(markup: str) -> frozenset[str]:
    """HTML-15: the access keys that markup anywhere names in a meta-like tag."""
    return frozenset(match.group(1).lower() for match in _ACCESS_TAG.finditer(markup))

"""What each HTML element is to the reader (HTML-5..HTML-12): the element tables.

The tables follow the HTML Living Standard's rendering section (§15, "Rendering"), whose
user-agent style sheet says which elements are ``display: block``, ``display: none`` and
``display: list-item``; where we depart from it the rule says so.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "ATOMIC_KINDS",
    "BLOCK_CONTAINERS",
    "BLOCK_ELEMENTS",
    "FURNITURE_ROLES",
    "FURNITURE_TAGS",
    "HEADINGS",
    "NEVER_TEXT",
    "PRE_ELEMENTS",
    "cookie_banner",
    "hidden_by_style",
    "permalink",
]

#: HTML-5: "[hidden], area, base, basefont, datalist, head, link, meta, noembed, noframes,
#: param, rp, script, style, template, title { display: none; }" (§15.3.1), plus what is
#: never the page's text to a reader: ``noscript`` (the page is parsed with scripting on,
#: as a browser that runs scripts: its content is raw text, "enable JavaScript"), embedded
#: content whose text is fallback
#: (``iframe``, ``object``, ``embed``, ``canvas``, ``audio``, ``video``, ``picture``),
#: form controls that hold no prose (``select``, ``input``, ``option``, ``optgroup``,
#: ``button``: its label is an action, "Copy", "Menu", not the page's prose), and
#: ``svg``/``math`` (foreign content: drawing and formula markup, HTML-5).
NEVER_TEXT: Final = frozenset(
    {
        "area", "base", "basefont", "datalist", "head", "link", "meta", "noembed",
        "noframes", "param", "rp", "script", "style", "template", "title", "noscript",
        "iframe", "object", "embed", "canvas", "audio", "video", "picture", "source",
        "track", "select", "option", "optgroup", "input", "img", "map", "button",
    }
)  # fmt: skip

#: HTML-7: the heading elements and their levels.
HEADINGS: Final = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}

#: HTML-8: elements read as one block of a kind, kept whole by ``structural`` (MD-9).
#: ``figure`` (a figure and its caption) is one prose block: the record kinds are
#: RECORD-4's, which have no figure kind.
ATOMIC_KINDS: Final = {
    "p": "paragraph",
    "address": "paragraph",
    "figure": "paragraph",
    "ul": "list",
    "ol": "list",
    "menu": "list",
    "dir": "list",
    "dl": "definition",
    "table": "table",
    "pre": "code",
    "listing": "code",
    "xmp": "code",
    "plaintext": "code",
    "textarea": "code",
    "blockquote": "quote",
}

#: HTML-6: ``white-space: pre`` elements (§15.3.3: "listing, plaintext, pre, xmp
#: { white-space: pre; }", "textarea { white-space: pre-wrap; }").
PRE_ELEMENTS: Final = frozenset({"pre", "listing", "xmp", "plaintext", "textarea"})

#: HTML-6: block-level elements of the UA style sheet (§15.3.2-§15.3.8) that contain flow:
#: they separate blocks but are not one block themselves (their children are).
BLOCK_CONTAINERS: Final = frozenset(
    {
        "html", "body", "main", "article", "section", "div", "header", "footer", "nav",
        "aside", "form", "fieldset", "legend", "details", "summary", "center", "search",
        "hgroup", "dialog", "figcaption", "caption", "li", "dd", "dt",
        "frameset", "frame", "slot",
    }
)  # fmt: skip

#: HTML-6: every element that starts a new line inside a block (containers, atomic blocks,
#: headings, table parts); any other element is inline and never reorders text.
BLOCK_ELEMENTS: Final = frozenset(
    {*BLOCK_CONTAINERS, *ATOMIC_KINDS, *HEADINGS, "hr", "tr", "thead", "tbody", "tfoot"}
)

#: HTML-11: page furniture: navigation, banners, footers and asides.
FURNITURE_TAGS: Final = frozenset({"nav", "aside", "header", "footer"})
FURNITURE_ROLES: Final = frozenset(
    {"navigation", "banner", "contentinfo", "complementary", "search"}
)

_COOKIE = re.compile(r"cookie|consent|gdpr", re.IGNORECASE)
_HIDDEN_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!\s*important\s*)?(?:;|$)",
    re.IGNORECASE,
)


def cookie_banner(element_id: str, classes: str) -> bool:
    """HTML-11: an element whose ``id`` or ``class`` names a cookie or consent banner."""
    return bool(_COOKIE.search(element_id) or _COOKIE.search(classes))


def hidden_by_style(style: str) -> bool:
    """HTML-5: an inline ``style`` declaring ``display: none`` or ``visibility: hidden``."""
    return bool(_HIDDEN_STYLE.search(style))


#: HTML-7: the text of a heading's permalink (Sphinx and MkDocs "¶", Node.js "#", "§").
_PERMALINK_TEXT = frozenset({"", "#", "¶", "§", "🔗", "link", "permalink"})
#: HTML-7: the text of a heading's link to its source code (Node.js "[src]", Sphinx
#: viewcode's "[source]").
_SOURCE_LINK_TEXT = frozenset({"[src]", "[source]"})


def permalink(href: object, text: str) -> bool:
    """HTML-7: a link in a heading that is not part of its title: to a fragment of the page
    (``href="#..."``) with a permalink sign as its text, or to source code as ``[src]``."""
    if not isinstance(href, str):
        return False
    shown = text.strip().lower()
    return (href.strip().startswith("#") and shown in _PERMALINK_TEXT) or (
        shown in _SOURCE_LINK_TEXT
    )

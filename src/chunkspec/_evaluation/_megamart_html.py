"""A labelled corpus's Markdown pages as web pages with site furniture (rule EVAL-45).

Each page is rendered with markdown-it-py (the preset chunkspec reads Markdown with:
CommonMark, tables, definition lists) into the ``<main>`` of an HTML page that a help-centre
site would serve: a ``<title>`` and ``<meta name="description">``, a ``<header>`` with the
site's name and a ``<nav>`` menu, a breadcrumb ``<nav>``, an ``<aside>`` of related pages,
a ``<footer>`` with the copyright and a cookie banner (``<div class="cookie-banner">``),
plus an inline ``<script>`` and ``<style>``. The rendering is a pure function of the
corpus: the same corpus gives the same bytes (no clock, no randomness, sorted inputs).
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.deflist import deflist_plugin

from ._labelled_corpus import Corpus, CorpusDocument

__all__ = ["SITE", "related_pages", "render_corpus", "render_page", "write_pages"]

#: The site's name, in the header, the title and the footer.
SITE = "MegaMart Assist"

#: The header's menu: (label, href).
MENU = (
    ("Home", "/"),
    ("Product help", "/products/"),
    ("Stores", "/stores/"),
    ("Returns", "/returns/"),
    ("Delivery", "/delivery/"),
    ("Contact us", "/contact/"),
)

#: Each page kind (the id's first part) as the breadcrumb names it.
SECTIONS = {
    "product": ("Product help", "/products/"),
    "store": ("Stores", "/stores/"),
    "returns": ("Returns", "/returns/"),
    "delivery": ("Delivery", "/delivery/"),
}

#: How many related pages each ``<aside>`` lists.
RELATED = 4

_DESCRIPTION = 155
_SPACE = re.compile(r"\s+")

_STYLE = (
    "body{font-family:sans-serif;margin:0}header,footer{background:#123;color:#fff;"
    "padding:1em}main{display:flex}article{flex:3;padding:1em}aside{flex:1;padding:1em}"
    ".cookie-banner{position:fixed;bottom:0;background:#ffd}"
)
_SCRIPT = (
    "window.dataLayer=window.dataLayer||[];"
    "function gtag(){dataLayer.push(arguments)}gtag('js','consent-pending');"
)


def _markdown() -> MarkdownIt:
    """The renderer: the preset chunkspec parses Markdown with (MD rules)."""
    return MarkdownIt("commonmark").enable("table").use(deflist_plugin)


def _description(md: MarkdownIt, markdown: str) -> str:
    """The page's first paragraph, whitespace collapsed, cut at a word to 155 characters."""
    tokens = md.parse(markdown)
    for before, token in itertools.pairwise(tokens):
        if before.type == "paragraph_open" and token.type == "inline":
            text = _SPACE.sub(" ", "".join(c.content for c in token.children or ())).strip()
            if len(text) <= _DESCRIPTION:
                return text
            cut = text[: _DESCRIPTION - 1].rsplit(" ", 1)[0]
            return cut.rstrip(" ,;:") + "…"
    return ""


def _href(doc_id: str) -> str:
    """Where a page lives on the site: ``/KIND/REST.html`` (``/pages/ID.html`` otherwise)."""
    kind, _, rest = doc_id.partition("-")
    if kind in SECTIONS and rest:
        return f"{SECTIONS[kind][1]}{rest}.html"
    return f"/pages/{doc_id}.html"


def related_pages(documents: Sequence[CorpusDocument]) -> dict[str, list[CorpusDocument]]:
    """Each page's related pages: the next ``RELATED`` pages of its kind, in id order, wrapping.

    The kind is the id's part before its first ``-`` (``product``, ``store``...); a page alone
    in its kind has none.
    """
    kinds: dict[str, list[CorpusDocument]] = {}
    for doc in sorted(documents, key=lambda d: d.id):
        kinds.setdefault(doc.id.partition("-")[0], []).append(doc)
    out: dict[str, list[CorpusDocument]] = {}
    for group in kinds.values():
        for i, doc in enumerate(group):
            others = [group[(i + n) % len(group)] for n in range(1, len(group))]
            out[doc.id] = others[:RELATED]
    return out


def render_page(
    document: CorpusDocument, related: Sequence[CorpusDocument] = (), *, site: str = SITE
) -> str:
    """Return ``document`` (Markdown) as a whole HTML page with the site's furniture."""
    md = _markdown()
    body = md.render(document.text)
    e = html.escape
    kind = document.id.partition("-")[0]
    crumb_label, crumb_href = SECTIONS.get(kind, ("Help centre", "/"))
    menu = "\n".join(f'      <li><a href="{h}">{e(label)}</a></li>' for label, h in MENU)
    links = "\n".join(f'      <li><a href="{_href(r.id)}">{e(r.title)}</a></li>' for r in related)
    aside = (
        f'  <aside class="related">\n    <h2>Related pages</h2>\n    <ul>\n{links}\n    </ul>\n'
        "  </aside>\n"
        if related
        else ""
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n'
        "<head>\n"
        '  <meta charset="utf-8">\n'
        '  <meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"  <title>{e(document.title)} | {e(site)}</title>\n"
        f'  <meta name="description" content="{e(_description(md, document.text))}">\n'
        f'  <link rel="canonical" href="https://help.megamart.example{_href(document.id)}">\n'
        f"  <style>{_STYLE}</style>\n"
        f"  <script>{_SCRIPT}</script>\n"
        "</head>\n"
        "<body>\n"
        '<header class="site-header">\n'
        f'  <a class="logo" href="/">{e(site)}</a>\n'
        '  <nav class="menu" aria-label="Main">\n'
        f"    <ul>\n{menu}\n    </ul>\n"
        "  </nav>\n"
        '  <form class="search" action="/search"><input name="q" placeholder="Search help">'
        "<button>Search</button></form>\n"
        "</header>\n"
        '<nav class="breadcrumb" aria-label="Breadcrumb"><a href="/">Help centre</a> › '
        f'<a href="{crumb_href}">{e(crumb_label)}</a> › {e(document.title)}</nav>\n'
        "<main>\n"
        f'  <article id="content">\n{body}  </article>\n'
        f"{aside}"
        "</main>\n"
        '<footer class="site-footer">\n'
        '  <p><a href="/privacy/">Privacy</a> · <a href="/terms/">Terms of use</a> · '
        '<a href="/accessibility/">Accessibility</a></p>\n'
        f"  <p>© 2026 MegaMart Retail B.V. All rights reserved. {e(site)} is the customer "
        "help centre of MegaMart.</p>\n"
        "</footer>\n"
        '<div class="cookie-banner" role="dialog" aria-label="Cookies">\n'
        "  <p>We use cookies to remember your preferences and to measure how our help pages "
        'are used. <a href="/cookies/">Cookie policy</a></p>\n'
        "  <button>Accept all</button> <button>Only necessary</button>\n"
        "</div>\n"
        "</body>\n"
        "</html>\n"
    )


def render_corpus(corpus: Corpus, *, site: str = SITE) -> dict[str, str]:
    """Every page of ``corpus`` rendered by :func:`render_page`, by document id, in order."""
    related = related_pages(corpus.documents)
    return {d.id: render_page(d, related[d.id], site=site) for d in corpus.documents}


def write_pages(pages: Mapping[str, str], directory: str | Path) -> list[Path]:
    """Write each rendered page as ``DIRECTORY/ID.html`` (UTF-8, ``\\n`` line ends)."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for doc_id, page in pages.items():
        path = folder / f"{doc_id}.html"
        path.write_bytes(page.encode("utf-8"))
        out.append(path)
    return out

"""The tree walk: a parsed page to its text, blocks, title and metadata (HTML-3..HTML-17).

The walk visits the WHATWG tree (turbohtml's) in tree order, so inline text is written in
the order the parser put it, never reordered (HTML-6); it tells the :class:`Writer` what
each element is (``_elements``) and where each text node's characters sit in the markup
(``_align``), advancing a markup cursor past every element's tags.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._blocks import Block
from ._align import align
from ._elements import (
    ATOMIC_KINDS,
    BLOCK_ELEMENTS,
    FURNITURE_ROLES,
    FURNITURE_TAGS,
    HEADINGS,
    NEVER_TEXT,
    PRE_ELEMENTS,
    cookie_banner,
    hidden_by_style,
    permalink,
)
from ._writer import NOT_SPACE, Segments, Writer

if TYPE_CHECKING:
    import turbohtml

__all__ = ["RenderedPage", "render_page"]

#: HTML-14: ``<meta name=...>`` read into the document's metadata, and the key each gets.
_META_NAMES = {"description": "description", "author": "author", "keywords": "keywords"}

#: HTML-11: a ``header`` or ``footer`` inside one of these is the section's own, not the
#: page's banner or footer (HTML-AAM: banner and contentinfo are scoped to ``body``).
_SECTIONING = frozenset({"article", "aside", "main", "nav", "section"})


@dataclass(frozen=True, slots=True)
class RenderedPage:
    """What the reader made of one page: ``text`` and its ``blocks`` (HTML-8), the markup
    ``segments`` (HTML-18), the ``title`` and ``meta`` found (HTML-13, HTML-14), the access
    keys the page's ``meta`` names (HTML-15) and how many text nodes stayed unplaced
    (HTML-20)."""

    text: str
    blocks: tuple[Block, ...]
    segments: Segments
    title: str | None
    meta: dict[str, str]
    access_names: frozenset[str]
    unplaced: int


def render_page(
    document: turbohtml.Document, markup: str, keep_furniture: bool, access: frozenset[str]
) -> RenderedPage:
    """Return the page read from ``document``, the tree turbohtml parsed from ``markup``
    (newline-normalized) with source locations."""
    walk = _Walk(markup, keep_furniture, access)
    for node in document.iter_elements():  # HTML-15: every meta, rendered or not
        if node.tag == "meta":
            name = node.attrs.get("name")
            if isinstance(name, str) and name.strip().lower() in access:
                walk.access_names.add(name.strip().lower())
    main = None if keep_furniture else _main(document, walk)
    if main is None:
        walk.flow(document.children)
    else:  # HTML-12: the main landmark is the page's content; the rest is furniture
        for node in document.iter_elements():
            if node.tag == "html":
                walk.language(node)
            elif node.tag == "head":
                walk.head(node)
        walk.cursor = main.source_location.start_tag.start_offset
        walk.flow([main])
    text = walk.writer.finish()
    return RenderedPage(
        text,
        tuple(walk.writer.blocks),
        walk.writer.segments,
        walk.title,
        walk.meta,
        frozenset(walk.access_names),
        walk.unplaced,
    )


def _main(document: turbohtml.Document, walk: _Walk) -> Any:
    """HTML-12: the page's first rendered ``main`` element (or ``role="main"``): in the HTML
    namespace, its start tag in the markup, neither it nor an element around it hidden,
    never text or furniture (HTML-5, HTML-11); else None."""
    for node in document.iter_elements():
        role = node.attrs.get("role")
        is_main = node.tag == "main" or (isinstance(role, str) and role.strip().lower() == "main")
        if not is_main or node.source_location is None:
            continue
        chain = [node, *(a for a in node.ancestors if isinstance(a, walk.element_type))]
        if not any(walk.hidden(element, element.tag) for element in chain):
            return node
    return None


class _Walk:
    """The state of one page's walk."""

    def __init__(self, markup: str, keep_furniture: bool, access: frozenset[str]) -> None:
        import turbohtml

        self.element_type: type[Any] = turbohtml.Element
        self.text_type: type[Any] = turbohtml.Text
        self.html_namespace = turbohtml.Namespace.HTML
        self.markup = markup
        self.cursor = 0
        self.keep_furniture = keep_furniture
        self.access = access
        self.writer = Writer()
        self.title: str | None = None
        self.meta: dict[str, str] = {}
        self.access_names: set[str] = set()
        self.unplaced = 0
        self.sections = 0  # the sectioning elements open around the walk (HTML-11)
        self.in_heading = False

    # -- the markup cursor ---------------------------------------------------------------
    def enter(self, element: Any) -> None:
        """Move the cursor past ``element``'s start tag (never backwards)."""
        location = element.source_location
        if location is not None:
            tag = location.start_tag
            if tag.start_offset >= self.cursor:
                self.cursor = tag.end_offset

    def leave(self, element: Any) -> None:
        """Move the cursor past ``element``'s end tag, if the markup has one there."""
        location = element.source_location
        if location is not None and location.end_tag is not None:
            tag = location.end_tag
            if tag.start_offset >= self.cursor:
                self.cursor = tag.end_offset

    def skip(self, element: Any) -> None:
        """Move the cursor past everything of ``element`` (a subtree that is not text)."""
        self.enter(element)
        end = self.cursor
        for node in element.iter_elements():  # descendants, in tree order
            location = node.source_location
            if location is not None:
                tag = location.end_tag or location.start_tag
                end = max(end, tag.end_offset)
        location = element.source_location
        if location is not None and location.end_tag is not None:
            end = max(end, location.end_tag.end_offset)
        self.cursor = max(self.cursor, end)

    def place(self, data: str) -> list[tuple[int, int, int, int, bool]] | None:
        """HTML-19: the pieces of a text node's data in the markup after the cursor."""
        found = align(data, self.markup, self.cursor)
        if found is None:
            self.unplaced += 1
            return None
        pieces, self.cursor = found
        return pieces

    # -- classification --------------------------------------------------------------------
    def hidden(self, element: Any, tag: str) -> bool:
        """HTML-5 and HTML-11: an element whose subtree is never text here."""
        if element.namespace is not self.html_namespace:
            return True  # svg, math: foreign content
        if tag in NEVER_TEXT:
            return True
        attrs = element.attrs
        if "hidden" in attrs and attrs.get("hidden") != "until-found":
            return True
        if tag == "dialog" and "open" not in attrs:
            return True
        style = attrs.get("style")
        if isinstance(style, str) and hidden_by_style(style):
            return True
        if tag == "a" and self.in_heading and permalink(attrs.get("href"), element.text):
            return True
        return not self.keep_furniture and self.furniture(element, tag, attrs)

    def furniture(self, element: Any, tag: str, attrs: Any) -> bool:
        """HTML-11: navigation, a page banner or footer, an aside, a cookie banner."""
        if tag in FURNITURE_TAGS and (tag in ("nav", "aside") or not self.sections):
            return True
        role = attrs.get("role")
        if isinstance(role, str) and role.strip().lower() in FURNITURE_ROLES:
            return True
        classes = attrs.get("class")
        names = " ".join(classes) if isinstance(classes, list) else str(classes or "")
        return cookie_banner(str(attrs.get("id") or ""), names)

    def heading_level(self, tag: str, attrs: Any) -> int:
        """HTML-7: ``h1``..``h6``, or ``role="heading"`` with ``aria-level`` (default 2)."""
        level = HEADINGS.get(tag, 0)
        if level:
            return level
        role = attrs.get("role")
        if isinstance(role, str) and role.strip().lower() == "heading":
            raw = attrs.get("aria-level")
            if isinstance(raw, str) and raw.strip() in ("1", "2", "3", "4", "5", "6"):
                return int(raw)  # ASCII digits only: "²" and "٣" are not levels
            return 2
        return 0

    # -- the walk --------------------------------------------------------------------------
    def head(self, element: Any) -> None:
        """HTML-13, HTML-14, HTML-15: the title, the metadata and the access-key names of
        every ``title`` and ``meta`` in ``element`` (the ``head``, or one in the body)."""
        for node in (element, *element.iter_elements()):
            tag = node.tag
            if tag == "title" and self.title is None:
                self.title = " ".join(node.text.split())
            elif tag == "meta":
                attrs = node.attrs
                name = attrs.get("name")
                content = attrs.get("content")
                if not isinstance(name, str):
                    continue
                key = name.strip().lower()
                if key in self.access:
                    self.access_names.add(key)
                elif key in _META_NAMES and isinstance(content, str) and content.split():
                    self.meta.setdefault(_META_NAMES[key], " ".join(content.split()))

    def language(self, element: Any) -> None:
        """HTML-14: ``<html lang>`` is the document's ``language``."""
        lang = element.attrs.get("lang")
        if isinstance(lang, str) and lang.strip():
            self.meta.setdefault("language", lang.strip())

    def flow(self, children: Iterable[Any]) -> None:
        """Walk flow content: blocks become blocks, inline runs anonymous paragraphs."""
        writer = self.writer
        for node in children:
            if isinstance(node, self.text_type):
                data = node.data
                pieces = self.place(data)
                if writer.block_start is None and not NOT_SPACE.search(data):
                    continue  # HTML-4: collapsible white space only (NBSP is a letter)
                writer.text(data, pieces, False)
                continue
            if not isinstance(node, self.element_type):
                continue  # comments, doctype, processing instructions
            tag = node.tag
            if tag == "html":
                self.language(node)
            if self.hidden(node, tag):
                if tag in ("head", "title", "meta"):
                    self.head(node)
                self.skip(node)
                continue
            level = self.heading_level(tag, node.attrs)
            if level:
                self.heading(node, level)
            elif tag in ATOMIC_KINDS:
                self.atomic(node, tag)
            elif tag in BLOCK_ELEMENTS:
                writer.close_block()
                self.enter(node)
                sectioning = tag in _SECTIONING
                self.sections += sectioning
                self.flow(node.children)
                self.sections -= sectioning
                self.leave(node)
                writer.close_block()
            elif tag == "br":
                self.enter(node)
                writer.br()
            else:  # inline: transparent, its block descendants still split (HTML-6)
                self.enter(node)
                self.flow(node.children)
                self.leave(node)

    def heading(self, element: Any, level: int) -> None:
        """HTML-7: a heading block; its title is its inline text, line breaks as spaces."""
        writer = self.writer
        writer.open_block("heading", level)
        self.enter(element)
        writer.flatten += 1
        self.in_heading = True
        self.inline(element.children, False)
        self.in_heading = False
        writer.flatten -= 1
        self.leave(element)
        writer.close_block()

    def atomic(self, element: Any, tag: str) -> None:
        """HTML-8: a block of its kind: a paragraph, list, table, code, quote."""
        writer = self.writer
        if tag == "table":
            self.caption(element)
        writer.open_block(ATOMIC_KINDS[tag])
        self.enter(element)
        if tag == "table":
            self.table(element)
        else:
            self.inline(element.children, tag in PRE_ELEMENTS)
        self.leave(element)
        writer.close_block()

    def inline(self, children: Iterable[Any], pre: bool) -> None:
        """Walk the content of an atomic block: nested blocks are lines (HTML-6)."""
        writer = self.writer
        for node in children:
            if isinstance(node, self.text_type):
                writer.text(node.data, self.place(node.data), pre)
                continue
            if not isinstance(node, self.element_type):
                continue
            tag = node.tag
            if self.hidden(node, tag):
                self.skip(node)
                continue
            if tag == "br":
                self.enter(node)
                writer.br()
                continue
            if tag == "table":
                writer.line_break()
                self.enter(node)
                writer.flatten += 1
                self.table(node)
                writer.flatten -= 1
                self.leave(node)
                writer.line_break()
                continue
            block = tag in BLOCK_ELEMENTS or self.heading_level(tag, node.attrs) > 0
            if block:
                writer.line_break()
            self.enter(node)
            self.inline(node.children, pre or tag in PRE_ELEMENTS)
            self.leave(node)
            if block:
                writer.line_break()

    def caption(self, table: Any) -> None:
        """HTML-10: a table's caption is a paragraph before the table block."""
        for child in table.children:
            if isinstance(child, self.element_type) and child.tag == "caption":
                if not self.hidden(child, "caption"):
                    self.writer.open_block("paragraph")
                    self.writer.flatten += 1
                    self.inline(child.children, False)
                    self.writer.flatten -= 1
                    self.writer.close_block()
                return

    def table(self, table: Any) -> None:
        """HTML-10: one line a row, a tab between cells; the header rows counted."""
        writer = self.writer
        header = 0
        body_seen = False
        for section, row in self.rows(table):
            is_header = section == "thead" or (
                not body_seen
                and section != "tfoot"
                and all(cell.tag == "th" for cell in self.cells(row))
                and any(True for _ in self.cells(row))
            )
            before = writer.length
            writer.line_break()
            self.enter(row)
            first = True
            for cell in self.cells(row):
                if not first:
                    writer.cell()
                first = False
                self.enter(cell)
                if self.hidden(cell, cell.tag):
                    self.skip(cell)
                    continue
                writer.flatten += 1
                self.inline(cell.children, False)
                writer.flatten -= 1
                self.leave(cell)
            self.leave(row)
            wrote = writer.length > before
            if is_header and not body_seen:
                header += wrote
            elif wrote:
                body_seen = True
        if not writer.flatten:  # 0 too: a table without header rows repeats none
            writer.attributes["header_rows"] = header

    def rows(self, table: Any) -> Iterable[tuple[str, Any]]:
        """The table's rows in tree order, with the section each is in."""
        for child in table.children:
            if not isinstance(child, self.element_type):
                continue
            if child.tag == "caption":
                self.skip(child)
            elif child.tag in ("thead", "tbody", "tfoot"):
                self.enter(child)
                for row in child.children:
                    if isinstance(row, self.element_type) and row.tag == "tr":
                        yield child.tag, row
                self.leave(child)
            elif child.tag == "tr":
                yield "tbody", child
            elif child.tag in ("colgroup", "col"):
                self.skip(child)

    def cells(self, row: Any) -> Iterable[Any]:
        """The row's cells (``td``, ``th``)."""
        for cell in row.children:
            if isinstance(cell, self.element_type) and cell.tag in ("td", "th"):
                yield cell

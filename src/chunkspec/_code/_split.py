"""The ``code`` strategy's split: syntax-tree nodes packed under the budget (CODE-3..CODE-9).

The algorithm, one rule a step (docs/spec/code.md):

- CODE-5: a node's children, and the text between them that no child covers, are *items*;
  comments join the item they document (a comment on the line where the previous item ends
  joins that item; a run of comments and attributes right above an item, no blank line
  between, joins it).
- CODE-6: from the first item on, a piece is the longest run of items whose span fits the
  budget. A run that stops before an item fitting alone ends at its last line end when it
  has one. An item over the budget alone is split the same way, its own children being the
  items (recursively), and the run before it joins its first piece when the two fit
  together (a header stays with the start of its body). A split item's last piece never
  takes the items after it.
- CODE-9: a leaf over the budget alone is cut at whitespace words, then SCRIPT-8's units,
  then grapheme clusters.
- CODE-10: each piece is trimmed of whitespace at both ends; pieces never overlap and what
  lies between them is whitespace.

Every span is a code point span of the text (CODE-2); ``measure`` counts a candidate piece
as its record will be counted (prefix included, CODE-8).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._chunkers._fit import fit_word, longest
from ._languages import Language
from ._offsets import ByteOffsets
from ._scopes import definition_of, header_line, label

__all__ = ["MAX_DEPTH", "Piece", "Scope", "TooDeep", "split_lines", "split_tree"]

#: CODE-3: a split that would open a node this deep chunks the file by lines instead.
MAX_DEPTH = 256

#: ``(start, end, prefix) -> tokens`` of the record text ``prefix + text[start:end]``.
Measure = Callable[[int, int, str], int]


@dataclass(frozen=True, slots=True)
class Scope:
    """One enclosing definition (CODE-7): its label, header line and where its header starts."""

    label: str
    header: str
    start: int


@dataclass(slots=True)
class Piece:
    """One chunk: ``text[start:end]`` inside the definitions ``scopes`` (outermost first);
    ``own`` is the label of the one whole definition the piece is, if it is one."""

    start: int
    end: int
    scopes: tuple[Scope, ...]
    own: Scope | None = None


class TooDeep(Exception):
    """CODE-3: the split reached :data:`MAX_DEPTH`."""


@dataclass(slots=True)
class _Item:
    """A run of sibling nodes (or text no node covers) the split keeps together (CODE-5)."""

    start: int
    end: int
    nodes: list[Any] = field(default_factory=list)


_WORD = re.compile(r"\S+")


def _is_comment(node: Any) -> bool:
    """CODE-5: comments, attributes (``#[...]`` in Rust) and decorators document what
    follows them."""
    kind: str = node.type
    return "comment" in kind or kind in ("attribute_item", "decorator")


def _documents(item: _Item) -> bool:
    """CODE-6: an item that only documents what follows it."""
    return bool(item.nodes) and all(_is_comment(n) for n in item.nodes)


class _Splitter:
    def __init__(
        self,
        text: str,
        offsets: ByteOffsets,
        language: Language,
        measure: Measure,
        max_tokens: int,
        prefix: bool,
    ) -> None:
        self.text = text
        self.cp = offsets.code_point
        self.language = language
        self.measure = measure
        self.max_tokens = max_tokens
        self.prefix = prefix
        self.out: list[Piece] = []

    # -- CODE-8: the prefix a piece starting at ``start`` carries
    def prefix_at(self, scopes: tuple[Scope, ...], start: int) -> str:
        if not self.prefix:
            return ""
        lines = [s.header for s in scopes if s.start < start]
        return "".join(line + "\n" for line in lines)

    def fits(self, scopes: tuple[Scope, ...], start: int, end: int) -> bool:
        return self.measure(start, end, self.prefix_at(scopes, start)) <= self.max_tokens

    # -- CODE-5: items
    def items(self, node: Any) -> list[_Item]:
        text, cp = self.text, self.cp
        children = node.children
        start, end = cp(node.start_byte), cp(node.end_byte)
        raw: list[_Item] = []
        position = start
        for child in children:
            a, b = cp(child.start_byte), cp(child.end_byte)
            if a > position and not text[position:a].isspace():
                raw.append(_trimmed(text, position, a))  # text no child covers (CODE-5)
            if b > a:
                raw.append(_Item(a, b, [child]))
            position = max(position, b)
        if end > position and not text[position:end].isspace():
            raw.append(_trimmed(text, position, end))
        return _grouped(text, raw)

    def scope(self, node: Any) -> Scope | None:
        definition = definition_of(node, self.language)
        if definition is None:
            return None
        if (
            definition.type.endswith("_specifier")
            and definition.child_by_field_name("body") is None
        ):
            return None
        cp = self.cp
        start = cp(definition.start_byte)
        name = definition.child_by_field_name("name")
        body = definition.child_by_field_name("body")
        return Scope(
            label(
                self.text,
                start,
                None if name is None else cp(name.end_byte),
                None if body is None else cp(body.start_byte),
            ),
            header_line(self.text, start),
            start,
        )

    def emit(self, start: int, end: int, scopes: tuple[Scope, ...], own: Scope | None) -> None:
        text = self.text
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            self.out.append(Piece(start, end, scopes, own))

    def own_scope(self, items: Sequence[_Item]) -> Scope | None:
        """The definition a run is, when it is one item holding one (CODE-7)."""
        if len(items) != 1:
            return None
        nodes = [n for n in items[0].nodes if not _is_comment(n)]
        return self.scope(nodes[0]) if len(nodes) == 1 else None

    # -- CODE-6
    def run(self, items: list[_Item], scopes: tuple[Scope, ...], depth: int) -> None:
        if depth > MAX_DEPTH:
            raise TooDeep
        text = self.text
        n = len(items)
        i = 0
        while i < n:
            first = items[i].start
            k = longest(i, n, lambda k: k > i and self.fits(scopes, first, items[k - 1].end))  # noqa: B023
            if k == n:
                self.emit(first, items[n - 1].end, scopes, self.own_scope(items[i:n]))
                return
            following = items[k]
            if k > i and self.fits(scopes, following.start, following.end):
                # CODE-6: the run closed for room; end it at its last line end if it has one
                if not _breaks(text, items[k - 1].end, following.start):
                    for j in range(k - 1, i, -1):
                        if _breaks(text, items[j - 1].end, items[j].start):
                            k = j
                            break
                self.emit(first, items[k - 1].end, scopes, self.own_scope(items[i:k]))
                i = k
                continue
            # CODE-6: ``following`` is over the budget alone: split it; the run before it
            # joins its first piece when both fit, unless ``following`` is a definition and
            # the run holds more than what documents it (comments, attributes, decorators).
            mark = len(self.out)
            self.split_item(following, scopes, depth)
            if k > i:
                pieces = self.out[mark:]
                joins = bool(pieces) and self.fits(scopes, first, pieces[0].end)
                if joins and self.own_scope([following]) is not None:
                    joins = all(_documents(item) for item in items[i:k])
                if joins:  # a definition's documentation keeps its scope (CODE-7)
                    where = pieces[0].scopes if self.own_scope([following]) else scopes
                    self.out[mark] = Piece(first, pieces[0].end, where, None)
                else:
                    del self.out[mark:]
                    self.emit(first, items[k - 1].end, scopes, self.own_scope(items[i:k]))
                    self.out.extend(pieces)
            i = k + 1

    def split_item(self, item: _Item, scopes: tuple[Scope, ...], depth: int) -> None:
        """Split an item over the budget alone (CODE-6, CODE-9)."""
        nodes = item.nodes
        if len(nodes) > 1:  # comments with what they document: each alone now
            singles = [_Item(self.cp(n.start_byte), self.cp(n.end_byte), [n]) for n in nodes]
            self.run(singles, scopes, depth + 1)
            return
        if nodes and nodes[0].child_count:
            node = nodes[0]
            inner = self.scope(node)
            if inner is not None and not (scopes and scopes[-1].start == inner.start):
                scopes = (*scopes, inner)
            self.run(self.items(node), scopes, depth + 1)
            return
        self.cut_leaf(item.start, item.end, scopes)

    def cut_leaf(self, start: int, end: int, scopes: tuple[Scope, ...]) -> None:
        """CODE-9: whitespace words, then SCRIPT-8's units and grapheme clusters."""
        text = self.text
        words = [(m.start(), m.end()) for m in _WORD.finditer(text, start, end)]
        i, n = 0, len(words)
        while i < n:
            first = words[i][0]
            k = longest(i, n, lambda k: k > i and self.fits(scopes, first, words[k - 1][1]))  # noqa: B023
            if k > i:
                self.emit(first, words[k - 1][1], scopes, None)
                i = k
                continue
            a, b = words[i]
            prefix = self.prefix_at(scopes, a)

            def fits(c: int, d: int, prefix: str = prefix) -> bool:
                return self.measure(c, d, prefix) <= self.max_tokens

            for c, d in fit_word(text, a, b, fits):
                self.emit(c, d, scopes, None)
            i += 1


def _trimmed(text: str, start: int, end: int) -> _Item:
    """An item of text no node covers, without the whitespace at its ends (CODE-5)."""
    while text[start].isspace():
        start += 1
    while text[end - 1].isspace():
        end -= 1
    return _Item(start, end)


def _breaks(text: str, end: int, start: int) -> bool:
    """Whether a line break lies between ``end`` and ``start`` (a line end, CODE-6)."""
    gap = text[end:start]
    return "\n" in gap or "\r" in gap


def _grouped(text: str, raw: list[_Item]) -> list[_Item]:
    """CODE-5: comments joined to what they document."""
    out: list[_Item] = []
    pending: list[_Item] = []  # comments above the next item, no blank line between
    for item in raw:
        comment = len(item.nodes) == 1 and _is_comment(item.nodes[0])
        if comment and not pending and out and not _breaks(text, out[-1].end, item.start):
            last = out[-1]  # a trailing comment: it ends the line of the item before it
            last.end = item.end
            last.nodes.extend(item.nodes)
            continue
        if pending and _blank(text, pending[-1].end, item.start):
            out.extend(pending)
            pending = []
        if comment:
            pending.append(item)
            continue
        if pending:
            nodes = [n for p in pending for n in p.nodes] + item.nodes
            item = _Item(pending[0].start, item.end, nodes)
            pending = []
        out.append(item)
    out.extend(pending)
    return out


def _blank(text: str, end: int, start: int) -> bool:
    """Whether a blank line lies between ``end`` and ``start`` (two line breaks, CRLF as one)."""
    gap = text[end:start].replace("\r\n", "\n").replace("\r", "\n")
    return gap.count("\n") >= 2


def split_tree(
    text: str,
    root: Any,
    language: Language,
    measure: Measure,
    max_tokens: int,
    prefix: bool,
) -> list[Piece]:
    """The pieces of ``text`` parsed as ``root`` (CODE-5..CODE-10); :class:`TooDeep` past
    :data:`MAX_DEPTH` (the caller falls back to lines, CODE-3)."""
    splitter = _Splitter(text, ByteOffsets(text), language, measure, max_tokens, prefix)
    items = splitter.items(root)
    # CODE-5: the text before and after the root node is covered too
    start = splitter.cp(root.start_byte)
    end = splitter.cp(root.end_byte)
    if start > 0 and not text[:start].isspace():
        items.insert(0, _trimmed(text, 0, start))
    if end < len(text) and not text[end:].isspace():
        items.append(_trimmed(text, end, len(text)))
    splitter.run(items, (), 0)
    return splitter.out


def split_lines(text: str, measure: Measure, max_tokens: int) -> list[Piece]:
    """CODE-4: the fallback: the longest runs of whole non-blank lines that fit, a line over
    the budget alone cut as a leaf is (CODE-9)."""
    splitter = _Splitter(text, ByteOffsets(""), _NO_LANGUAGE, measure, max_tokens, False)
    items = [_Item(m.start(1), m.end(1)) for m in _LINE.finditer(text)]
    splitter.run(items, (), 0)
    return splitter.out


#: A line's text from its first to its last non-whitespace character (CODE-4); a line ends
#: at ``\n``, ``\r\n`` or ``\r``.
_LINE = re.compile(r"[^\S\r\n]*([^\r\n]*[^\s])")
_NO_LANGUAGE = Language("", (), (), "", "", frozenset())

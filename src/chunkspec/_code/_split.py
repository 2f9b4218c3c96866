"""The ``code`` strategy's split: syntax-tree nodes packed under the budget (CODE-3..CODE-10).

The algorithm, one rule a step (docs/spec/code.md):

- CODE-5: a node's children, and the text between them that no child covers, are *items*;
  comments join the item they document (a comment on the line where the previous item ends
  joins that item; a run of comments, attributes and decorators right above an item, no
  blank line between, joins it).
- CODE-6: the items wait in order. From the first on, a piece is the longest run that fits
  the budget; a run closed for room ends at its last line end when it has one. An item over
  the budget alone *opens* in place: its own items take its place in the order (an error
  node's lines; a leaf's words; a word's SCRIPT-8 pieces), so a header packs with the start
  of its body and a body fills its pieces. A definition opens only at the start of a piece
  (what documents it joins it), and nothing after it joins a piece of its inside but the
  tokens that close it (``)``, ``}``, ``;``).
- CODE-10: each piece is trimmed of whitespace at both ends; pieces never overlap and what
  lies between them is whitespace.

Every span is a code point span of the text (CODE-2); ``measure`` counts a candidate piece
as its record will be counted (prefix included, CODE-8). The waiting items are a stack (the
next on top), so opening an item costs its own items, and the whole split is one loop.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._core._fit import fit_word, longest
from ._languages import Language
from ._offsets import ByteOffsets
from ._scopes import definition_of, header_line, label, line_end

__all__ = ["MAX_DEPTH", "Piece", "Scope", "split_lines", "split_tree"]

#: CODE-3: a split that would open an item nested this deep chunks the file by lines.
MAX_DEPTH = 256

#: ``(start, end, prefix) -> tokens`` of the record text ``prefix + text[start:end]``.
Measure = Callable[[int, int, str], int]


@dataclass(frozen=True, slots=True)
class Scope:
    """One enclosing definition (CODE-7): its label, header line and where its header starts."""

    label: str
    header: str
    start: int
    body: int | None = None
    line_end: int = 0


@dataclass(slots=True)
class Piece:
    """One chunk: ``text[start:end]`` inside the definitions ``scopes`` (outermost first);
    ``own`` is the scope of the one whole definition the piece is, if it is one; ``prefix``
    its CODE-8 prefix."""

    start: int
    end: int
    scopes: tuple[Scope, ...]
    own: Scope | None = None
    prefix: str = ""


#: What an item is: syntax nodes, text no node covers, a line (CODE-4), a word or a
#: piece of a word (CODE-9), or the end of an opened definition.
NODES, TEXT, WORD, ATOM, END = range(5)


@dataclass(slots=True)
class _Item:
    """An item waiting to be packed (CODE-5): its span, its nodes, the definitions it is in
    and how deep it was opened."""

    start: int
    end: int
    nodes: list[Any] = field(default_factory=list)
    scopes: tuple[Scope, ...] = ()
    depth: int = 0
    kind: int = NODES
    head: bool = False


_WORD = re.compile(r"\S+")


def _is_comment(node: Any) -> bool:
    """CODE-5: comments, attributes (``#[...]`` in Rust) and decorators document what
    follows them."""
    kind: str = node.type
    return "comment" in kind or kind in ("attribute_item", "decorator")


def _documents(item: _Item) -> bool:
    """CODE-6: an item that only documents or opens what follows it: comments, attributes,
    decorators and anonymous tokens (``export``, ``(``)."""
    return bool(item.nodes) and all(_is_comment(n) or not n.is_named for n in item.nodes)


def _closes(item: _Item) -> bool:
    """CODE-6: an item of anonymous tokens only (``)``, ``}``, ``;``)."""
    return bool(item.nodes) and not any(n.is_named for n in item.nodes)


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
        self.ends: list[int] = []
        self.prefixes: dict[tuple[Scope, ...], str] = {}
        self.too_deep = False  # CODE-3: an item past MAX_DEPTH would open

    # -- CODE-8: the prefix a piece starting at ``start`` carries
    def prefix_at(self, scopes: tuple[Scope, ...], start: int) -> str:
        """CODE-8: the first lines of the definitions whose first line ends before ``start``,
        unless they count more than half the budget together (then none)."""
        if not self.prefix or not scopes:
            return ""
        above = tuple(s for s in scopes if s.line_end < start)
        known = self.prefixes.get(above)
        if known is None:
            known = "".join(s.header + "\n" for s in above)
            if known and self.measure(0, 0, known) > self.max_tokens // 2:
                known = ""
            self.prefixes[above] = known
        return known

    def fits(self, scopes: tuple[Scope, ...], start: int, end: int) -> bool:
        return self.measure(start, end, self.prefix_at(scopes, start)) <= self.max_tokens

    # -- CODE-5: items
    def items(self, node: Any, scopes: tuple[Scope, ...], depth: int) -> list[_Item]:
        text, cp = self.text, self.cp
        start, end = cp(node.start_byte), cp(node.end_byte)
        raw: list[_Item] = []
        position = start
        for child in node.children:
            a, b = cp(child.start_byte), cp(child.end_byte)
            if a > position and not text[position:a].isspace():  # text no child covers
                raw.append(_trimmed(text, position, a, scopes, depth))
            if b > a:
                raw.append(_Item(a, b, [child], scopes, depth))
            position = max(position, b)
        if end > position and not text[position:end].isspace():
            raw.append(_trimmed(text, position, end, scopes, depth))
        return _grouped(text, raw)

    def scope(self, node: Any) -> Scope | None:
        """CODE-7: the scope of the definition ``node`` is (or wraps), else None."""
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
        body_start = None if body is None else cp(body.start_byte)
        return Scope(
            label(self.text, start, None if name is None else cp(name.end_byte), body_start),
            header_line(self.text, start),
            start,
            body_start,
            line_end(self.text, start),
        )

    def defines(self, item: _Item) -> Scope | None:
        """The definition an item is, when it holds one (with what documents it, CODE-7)."""
        if item.kind != NODES:
            return None
        nodes = [n for n in item.nodes if not _is_comment(n)]
        return self.scope(nodes[0]) if len(nodes) == 1 else None

    def emit(self, start: int, end: int, scopes: tuple[Scope, ...], own: Scope | None) -> None:
        text = self.text
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            self.out.append(Piece(start, end, scopes, own, self.prefix_at(scopes, start)))

    def lines(self, start: int, end: int, scopes: tuple[Scope, ...], depth: int) -> list[_Item]:
        """CODE-4: the lines of ``text[start:end]``, each trimmed."""
        return [
            _Item(m.start(1), m.end(1), [], scopes, depth, TEXT)
            for m in _LINE.finditer(self.text, start, end)
        ]

    # -- CODE-6: opening an item over the budget alone
    def opened(self, item: _Item) -> tuple[list[_Item], Scope | None]:
        """The items that take ``item``'s place, and the definition it is (if it is one)."""
        depth = item.depth + 1
        if depth > MAX_DEPTH:  # CODE-3: the caller chunks the file by lines
            self.too_deep = True
            return [], None
        scopes = item.scopes
        if item.kind == NODES:
            nodes = item.nodes
            inner = self.defines(item)
            if inner is not None and not (scopes and scopes[-1].start == inner.start):
                scopes = (*scopes, inner)
            else:
                inner = None
            if len(nodes) > 1:  # comments with what they document: each node an item
                cp = self.cp
                singles = [
                    _Item(cp(n.start_byte), cp(n.end_byte), [n], scopes, depth) for n in nodes
                ]
                # what documents a definition is inside it; the definition opens next
                if inner is not None:
                    singles[-1].scopes = item.scopes
                return singles, None
            node = nodes[0]
            if node.type == "ERROR":  # CODE-3: what the parser could not read, by lines
                return self.lines(item.start, item.end, scopes, depth), inner
            if node.child_count:
                items = self.items(node, scopes, depth)
                if inner is not None and inner.body is not None:
                    for each in items:  # CODE-6: a definition's first lines, up to its body
                        each.head = each.start < inner.body
                return items, inner
        if item.kind in (NODES, TEXT):  # CODE-9: a leaf's words
            words = [
                _Item(m.start(), m.end(), [], scopes, depth, WORD)
                for m in _WORD.finditer(self.text, item.start, item.end)
            ]
            if len(words) > 1:
                return words, None
        # CODE-9: one word over the budget: SCRIPT-8's units, then grapheme clusters
        prefix = self.prefix_at(scopes, item.start)

        def fits(c: int, d: int) -> bool:
            return self.measure(c, d, prefix) <= self.max_tokens

        return [
            _Item(c, d, [], scopes, depth, ATOM)
            for c, d in fit_word(self.text, item.start, item.end, fits)
        ], None

    # -- CODE-6: packing
    def pack(self, items: list[_Item]) -> None:
        text = self.text
        stack = items[::-1]  # the next item on top
        ends = self.ends  # stack positions of the END markers, bottom first
        while stack:
            top = stack[-1]
            if top.kind == END:  # CODE-6: the tokens closing an opened definition
                stack.pop()
                ends.pop()
                if self.out:
                    last = self.out[-1]
                    while stack and _closes(stack[-1]):
                        if not self.fits(last.scopes, last.start, stack[-1].end):
                            break
                        last.end = stack.pop().end
                continue
            floor = ends[-1] if ends else -1
            available = len(stack) - 1 - floor
            first, scopes = top.start, top.scopes

            def ok(j: int, first: int = first, scopes: tuple[Scope, ...] = scopes) -> bool:
                return j > 0 and self.fits(scopes, first, stack[-j].end)

            k = longest(0, available, ok)
            if k == available:
                self.close(stack, k)
                continue
            following = stack[-(k + 1)]
            if k and self.fits(following.scopes, following.start, following.end):
                if (
                    ends
                    and len(stack) - (k + 1) == ends[-1] + 1
                    and following.kind == NODES
                    and len(following.nodes) == 1
                    and following.nodes[0].child_count
                    and self.defines(following) is None
                ):
                    # CODE-6: a definition's body opens, so its first line packs with the
                    # start of its body rather than standing alone
                    self.open(stack, k, following)
                    continue
                # closed for room: end at the run's last line end, if it has one
                if not _breaks(text, stack[-k].end, following.start):
                    for j in range(k - 1, 0, -1):
                        if _breaks(text, stack[-j].end, stack[-(j + 1)].start):
                            k = j
                            break
                self.close(stack, k)
                continue
            # ``following`` is over the budget alone: it opens in its place
            if following.kind == ATOM:  # one grapheme cluster over the budget (SCRIPT-8)
                self.close(stack, k or 1)  # the run first, then the cluster alone
                continue
            if k and self.defines(following) is not None and not _heads(stack, k):
                self.close(stack, k)  # a definition opens at the start of a piece
                continue
            self.open(stack, k, following)
            if self.too_deep:
                return

    def open(self, stack: list[_Item], k: int, following: _Item) -> None:
        """Put the items of ``following`` (``stack[-(k + 1)]``) in its place (CODE-6); an
        opened definition ends with an END marker, which nothing after it packs across."""
        defined = self.defines(following) if k else None
        opened, inner = self.opened(following)
        if self.too_deep:
            return
        position = len(stack) - (k + 1)
        if defined is not None and all(_documents(stack[-j]) for j in range(1, k + 1)):
            for j in range(1, k + 1):  # what documents a definition is inside it
                stack[-j].scopes = opened[0].scopes
        if inner is not None:
            end = _Item(following.end, following.end, [], following.scopes, 0, END)
            stack[position : position + 1] = [end, *reversed(opened)]
            self.ends.append(position)
        else:
            stack[position : position + 1] = opened[::-1]

    def close(self, stack: list[_Item], k: int) -> None:
        """Make the top ``k`` items one piece (CODE-6, CODE-7)."""
        run = stack[-k:]
        del stack[-k:]
        first = run[-1]
        own = self.defines(first) if k == 1 else None
        self.emit(first.start, run[0].end, first.scopes, own)


def _heads(stack: list[_Item], k: int) -> bool:
    """CODE-6: the run (the top ``k`` items) is only the first lines of definitions (what
    comes before their bodies) and what documents or opens what follows."""
    return all(stack[-j].head or _documents(stack[-j]) for j in range(1, k + 1))


def _trimmed(text: str, start: int, end: int, scopes: tuple[Scope, ...], depth: int) -> _Item:
    """An item of text no node covers, without the whitespace at its ends (CODE-5)."""
    while text[start].isspace():
        start += 1
    while text[end - 1].isspace():
        end -= 1
    return _Item(start, end, [], scopes, depth, TEXT)


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
        if (
            comment
            and not pending
            and out
            and out[-1].kind == NODES
            and not _breaks(text, out[-1].end, item.start)
        ):
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
        if pending and item.kind == NODES:
            nodes = [n for p in pending for n in p.nodes] + item.nodes
            item = _Item(pending[0].start, item.end, nodes, item.scopes, item.depth)
            pending = []
        out.extend(pending)
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
    offsets: ByteOffsets,
) -> list[Piece] | None:
    """The pieces of ``text`` parsed as ``root`` (CODE-5..CODE-10); None when an item past
    :data:`MAX_DEPTH` would open (the caller falls back to lines, CODE-3)."""
    splitter = _Splitter(text, offsets, language, measure, max_tokens, prefix)
    if root.type == "ERROR":  # CODE-3: nothing parsed
        splitter.pack(splitter.lines(0, len(text), (), 0))
        return splitter.out
    items = splitter.items(root, (), 0)
    # CODE-5: the text before and after the root node is covered too
    start = splitter.cp(root.start_byte)
    end = splitter.cp(root.end_byte)
    if start > 0 and not text[:start].isspace():
        items.insert(0, _trimmed(text, 0, start, (), 0))
    if end < len(text) and not text[end:].isspace():
        items.append(_trimmed(text, end, len(text), (), 0))
    splitter.pack(items)
    return None if splitter.too_deep else splitter.out


def split_lines(text: str, measure: Measure, max_tokens: int) -> list[Piece]:
    """CODE-4: the fallback: the longest runs of whole non-blank lines that fit, a line over
    the budget alone opened into its words (CODE-9)."""
    splitter = _Splitter(text, ByteOffsets(""), _NO_LANGUAGE, measure, max_tokens, False)
    splitter.pack(splitter.lines(0, len(text), (), 0))
    return splitter.out


#: A line's text from its first to its last non-whitespace character (CODE-4); a line ends
#: at ``\n``, ``\r\n`` or ``\r``.
_LINE = re.compile(r"[^\S\r\n]*([^\r\n]*[^\s])")
_NO_LANGUAGE = Language("", (), (), "", "", frozenset())

"""The literal model of the ``code`` strategy (docs/spec/code.md, CODE-3..CODE-11).

Each rule is written as the spec states it, slowly and plainly: the real tree-sitter tree
is walked node by node, a byte offset becomes a code point offset by decoding the bytes
before it (CODE-2), the text no child covers is found with a per-character mask (CODE-5),
comments are grouped in two passes (trailing, then documentation; CODE-5), a run of items
grows one item at a time while it fits (CODE-6: no galloping), the whitespace counter is
``len((prefix + text[a:b]).split())`` (``unicode``'s units on a text in a script written
without spaces, SCRIPT-6) and ``chars{N}`` is ``ceil(len / N)``. The fast
strategy (``src/chunkspec/_code/``, ``src/chunkspec/_chunkers/_code.py``) must give the same
records: spans, prefixes, heading paths and ``code`` metadata.

Where the spec leaves a choice open, the model takes the fast code's reading and says so:
a zero-width child is no item; the piece made of a run joined to the first piece of a
split definition keeps that piece's scopes (CODE-6, CODE-7); a file chunked by lines has
no ``symbols`` (CODE-11).
"""

from __future__ import annotations

import importlib
import itertools
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import tree_sitter

from chunkspec._code._languages import LANGUAGES
from chunkspec._core._graphemes import grapheme_bounds
from chunkspec._core._units import has_cluster_script, unit_spans

__all__ = ["ModelRecord", "model_records", "parse"]

#: CODE-3: opening a node nested deeper than this chunks the file by lines.
MAX_DEPTH = 256
#: CODE-7: a label is at most this many characters.
LABEL_LIMIT = 100
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class ModelRecord:
    """One record: ``prefix + text[start:end]``, its path and its ``code`` metadata."""

    start: int
    end: int
    prefix: str
    heading_path: tuple[str, ...]
    code: dict[str, Any]


def parse(text: str, language: str) -> Any:
    """The tree of ``text`` by ``language``'s grammar wheel (CODE-2)."""
    entry = LANGUAGES[language]
    grammar = importlib.import_module(entry.module)
    lang = tree_sitter.Language(getattr(grammar, entry.function)())
    return tree_sitter.Parser(lang).parse(text.encode("utf-8"))


def _nodes(root: Any) -> list[tuple[Any, int]]:
    """Every node of the tree with its depth (the root's is 0), in document order."""
    out: list[tuple[Any, int]] = []
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        out.append((node, depth))
        stack.extend((child, depth + 1) for child in reversed(node.children))
    return out


class _TooDeep(Exception):
    pass


@dataclass
class _Item:
    start: int
    end: int
    nodes: list[Any] = field(default_factory=list)  # the syntax nodes it holds
    text_run: bool = False  # it holds text no child covers


@dataclass
class _Scope:
    key: tuple[int, int, str]  # the definition node: start byte, end byte, type
    label: str
    header: str
    start: int


@dataclass
class _Piece:
    start: int
    end: int
    scopes: tuple[_Scope, ...]
    own: _Scope | None


class _Model:
    def __init__(
        self, text: str, language: str | None, max_tokens: int, counter: str, prefix: bool
    ) -> None:
        self.text = text
        self.data = text.encode("utf-8")
        self.language = None if language is None else LANGUAGES[language]
        self.max_tokens = max_tokens
        self.counter = counter
        self.prefix = prefix
        self._cp: dict[int, int] = {}

    # CODE-2: a byte offset as a code point offset, naively
    def cp(self, offset: int) -> int:
        if offset not in self._cp:
            self._cp[offset] = len(self.data[:offset].decode("utf-8"))
        return self._cp[offset]

    def count(self, text: str) -> int:
        if self.counter == "whitespace":
            return len(text.split())
        if self.counter == "unicode":  # SCRIPT-3's units
            return len(unit_spans(text))
        assert self.counter.startswith("chars")
        n = int(self.counter[len("chars") :])
        return -(-len(text) // n)

    # CODE-8: the prefix at ``a``: first lines of the definitions whose label starts before
    def prefix_at(self, scopes: tuple[_Scope, ...], a: int) -> str:
        if not self.prefix:
            return ""
        return "".join(s.header + "\n" for s in scopes if s.start < a)

    # CODE-6: fits(a, b)
    def fits(self, scopes: tuple[_Scope, ...], a: int, b: int) -> bool:
        return self.count(self.prefix_at(scopes, a) + self.text[a:b]) <= self.max_tokens

    # -- CODE-7: definitions, labels, header lines
    def is_comment(self, node: Any) -> bool:
        return "comment" in node.type or node.type in ("attribute_item", "decorator")

    def definition(self, node: Any) -> Any | None:
        """The definition ``node`` is: itself, or the one a wrapper holds."""
        language = self.language
        assert language is not None
        if node.type in language.definitions:
            if node.type in ("struct_specifier", "enum_specifier"):
                return node if node.child_by_field_name("body") is not None else None
            return node
        if node.type in language.wrappers:
            for child in node.named_children:
                if child.type in language.definitions or child.type in language.wrappers:
                    return self.definition(child)
        return None

    def line_of(self, at: int) -> tuple[int, int]:
        """Start and end (before the break) of the line holding ``at``."""
        start = 0
        for match in _LINE_BREAK.finditer(self.text):
            if match.start() >= at:
                return start, match.start()
            start = match.end()
        return start, len(self.text)

    def scope(self, node: Any) -> _Scope | None:
        found = self.definition(node)
        if found is None:
            return None
        start = self.cp(found.start_byte)
        line_start, line_end = self.line_of(start)
        name = found.child_by_field_name("name")
        body = found.child_by_field_name("body")
        end = line_end
        if name is not None and self.cp(name.end_byte) <= line_end:
            end = self.cp(name.end_byte)
        elif body is not None and self.cp(body.start_byte) <= line_end:
            end = self.cp(body.start_byte)
        label = " ".join(self.text[start:end].split())
        while label and label[-1] in " {:":
            label = label[:-1]
        header = self.text[line_start:line_end].rstrip()
        key = (found.start_byte, found.end_byte, found.type)
        return _Scope(key, label[:LABEL_LIMIT], header, start)

    # -- CODE-5: items
    def items(self, node: Any) -> list[_Item]:
        a, b = self.cp(node.start_byte), self.cp(node.end_byte)
        return self.group(self.raw_items(node, a, b))

    def raw_items(self, node: Any, a: int, b: int) -> list[_Item]:
        covered = [False] * (b - a)
        found: list[_Item] = []
        for child in node.children:
            c, d = self.cp(child.start_byte), self.cp(child.end_byte)
            if d > c:
                found.append(_Item(c, d, [child]))
            for k in range(c, d):
                covered[k - a] = True
        position = a
        while position < b:
            if covered[position - a]:
                position += 1
                continue
            run_end = position
            while run_end < b and not covered[run_end - a]:
                run_end += 1
            piece = self.text[position:run_end]
            if piece.strip():
                lead = len(piece) - len(piece.lstrip())
                trail = len(piece) - len(piece.rstrip())
                found.append(_Item(position + lead, run_end - trail, [], True))
            position = run_end
        return sorted(found, key=lambda item: item.start)

    def comment_only(self, item: _Item) -> bool:
        return bool(item.nodes) and not item.text_run and all(map(self.is_comment, item.nodes))

    def line_break(self, a: int, b: int) -> bool:
        return _LINE_BREAK.search(self.text[a:b]) is not None

    def blank_line(self, a: int, b: int) -> bool:
        return len(_LINE_BREAK.findall(self.text[a:b])) >= 2

    def group(self, raw: list[_Item]) -> list[_Item]:
        # a comment starting on the line where the item before it ends joins that item
        trailed: list[_Item] = []
        for item in raw:
            comment = len(item.nodes) == 1 and self.is_comment(item.nodes[0])
            if comment and trailed and not self.line_break(trailed[-1].end, item.start):
                last = trailed[-1]
                trailed[-1] = _Item(last.start, item.end, last.nodes + item.nodes, last.text_run)
            else:
                trailed.append(item)
        # a run of comments directly above an item, no blank line between, joins it
        out: list[_Item] = []
        k = 0
        while k < len(trailed):
            if not self.comment_only(trailed[k]):
                out.append(trailed[k])
                k += 1
                continue
            j = k
            while j < len(trailed) and self.comment_only(trailed[j]):
                j += 1
            run = trailed[k:j]
            segment = [run[0]]  # the comments after the last blank line of the run
            for comment in run[1:]:
                if self.blank_line(segment[-1].end, comment.start):
                    out.extend(segment)
                    segment = []
                segment.append(comment)
            if j < len(trailed) and not self.blank_line(segment[-1].end, trailed[j].start):
                target = trailed[j]
                nodes = [n for c in segment for n in c.nodes] + target.nodes
                out.append(_Item(segment[0].start, target.end, nodes, target.text_run))
                k = j + 1
            else:
                out.extend(segment)
                k = j
        return out

    # -- CODE-6: packing
    def own(self, run: list[_Item]) -> _Scope | None:
        if len(run) != 1:
            return None
        nodes = [n for n in run[0].nodes if not self.is_comment(n)]
        if len(nodes) != 1 or run[0].text_run:
            return None
        return self.scope(nodes[0])

    def piece(self, a: int, b: int, scopes: tuple[_Scope, ...], own: _Scope | None) -> list[_Piece]:
        """CODE-10: trimmed of white space; white space alone is no piece."""
        while a < b and self.text[a].isspace():
            a += 1
        while b > a and self.text[b - 1].isspace():
            b -= 1
        return [_Piece(a, b, scopes, own)] if b > a else []

    def pack(self, items: list[_Item], scopes: tuple[_Scope, ...], depth: int) -> list[_Piece]:
        out: list[_Piece] = []
        i, n = 0, len(items)
        while i < n:
            k = i  # 1. the longest run that fits, one item at a time
            while k < n and self.fits(scopes, items[i].start, items[k].end):
                k += 1
            if k == n:  # 2. the run reaches the last item
                out += self.piece(items[i].start, items[-1].end, scopes, self.own(items[i:]))
                break
            following = items[k]
            if self.fits(scopes, following.start, following.end):
                if not self.line_break(items[k - 1].end, following.start):
                    ends = [j for j in range(i + 1, k)
                            if self.line_break(items[j - 1].end, items[j].start)]  # fmt: skip
                    if ends:
                        k = ends[-1]
                out += self.piece(items[i].start, items[k - 1].end, scopes, self.own(items[i:k]))
                i = k
                continue
            # 3. following is over the budget alone
            split = self.split(following, scopes, depth)
            run = items[i:k]
            if run:
                definition = self.own([following]) is not None
                joins = bool(split) and self.fits(scopes, run[0].start, split[0].end)
                if joins and definition and not all(map(self.comment_only, run)):
                    joins = False
                if joins:
                    where = split[0].scopes if definition else scopes
                    split[0] = _Piece(run[0].start, split[0].end, where, None)
                else:
                    out += self.piece(run[0].start, run[-1].end, scopes, self.own(run))
            out += split
            i = k + 1
        return out

    def split(self, item: _Item, scopes: tuple[_Scope, ...], depth: int) -> list[_Piece]:
        if len(item.nodes) > 1:  # comments with what they document: a run of its nodes
            singles = [_Item(self.cp(n.start_byte), self.cp(n.end_byte), [n]) for n in item.nodes]
            return self.pack(singles, scopes, depth)
        if len(item.nodes) == 1 and item.nodes[0].child_count and not item.text_run:
            node = item.nodes[0]
            if depth + 1 > MAX_DEPTH:
                raise _TooDeep
            inner = self.scope(node)
            if inner is not None and not any(s.key == inner.key for s in scopes):
                scopes = (*scopes, inner)
            return self.pack(self.items(node), scopes, depth + 1)
        return self.cut(item.start, item.end, scopes)

    # -- CODE-9: a leaf over the budget
    def cut(self, a: int, b: int, scopes: tuple[_Scope, ...]) -> list[_Piece]:
        words = [(m.start(), m.end()) for m in re.finditer(r"\S+", self.text[a:b])]
        words = [(a + s, a + e) for s, e in words]
        return [
            _Piece(s, e, scopes, None)
            for s, e in self.longest_runs([w[0] for w in words] + [b], words, scopes, self.word)
        ]

    def longest_runs(self, bounds: list[int], steps: list[tuple[int, int]],
                     scopes: tuple[_Scope, ...], finer: Any) -> list[tuple[int, int]]:  # fmt: skip
        """Runs of ``steps`` (in order) that fit, grown one step at a time; a step over the
        budget alone goes to ``finer``."""
        out: list[tuple[int, int]] = []
        i = 0
        while i < len(steps):
            k = i
            while k < len(steps) and self.fits(scopes, steps[i][0], steps[k][1]):
                k += 1
            if k > i:
                out.append((steps[i][0], steps[k - 1][1]))
                i = k
            else:
                out.extend(finer(steps[i][0], steps[i][1], scopes))
                i += 1
        return out

    def word(self, a: int, b: int, scopes: tuple[_Scope, ...]) -> list[tuple[int, int]]:
        """SCRIPT-8: a word over the budget: runs of its units, then grapheme clusters."""
        starts = [s for s, _ in unit_spans(self.text, a, b)]
        bounds = [a, *starts[1:], b]
        units = list(itertools.pairwise(bounds))
        return self.longest_runs(bounds, units, scopes, self.clusters)

    def clusters(self, a: int, b: int, scopes: tuple[_Scope, ...]) -> list[tuple[int, int]]:
        bounds = grapheme_bounds(self.text, a, b)
        steps = list(itertools.pairwise(bounds))
        return self.longest_runs(bounds, steps, scopes, lambda c, d, _: [(c, d)])

    # -- CODE-4: lines
    def lines(self) -> list[_Piece]:
        items = []
        start = 0
        for match in [*_LINE_BREAK.finditer(self.text), None]:
            end = len(self.text) if match is None else match.start()
            line = self.text[start:end]
            if line.strip():
                lead = len(line) - len(line.lstrip())
                items.append(_Item(start + lead, start + len(line.rstrip())))
            if match is not None:
                start = match.end()
        return self.pack(items, (), 0)

    # -- CODE-11: symbols
    def symbols(self, root: Any) -> list[tuple[int, str]]:
        language = self.language
        assert language is not None
        out = []
        for node, _ in _nodes(root):
            if node.type not in language.definitions or self.definition(node) is None:
                continue
            name = node.child_by_field_name("name")
            if name is None and language.name in ("c", "cpp"):
                name = node.child_by_field_name("declarator")
                while name is not None and name.child_by_field_name("declarator") is not None:
                    name = name.child_by_field_name("declarator")
            if name is None and node.type == "impl_item":
                name = node.child_by_field_name("type")
            if name is not None:
                word = self.data[name.start_byte : name.end_byte].decode("utf-8")
                out.append((self.cp(node.start_byte), " ".join(word.split())))
        return sorted(out)

    def line_number(self, at: int) -> int:
        return len(_LINE_BREAK.findall(self.text[:at])) + 1


def model_records(
    text: str,
    language: str | None,
    max_tokens: int,
    counter: str = "whitespace",
    scope_prefix: bool = False,
    title: str = "x",
) -> list[ModelRecord]:
    """The records of the ``code`` strategy on ``text``, rule by rule."""
    if counter == "whitespace" and has_cluster_script(text):
        counter = "unicode"  # SCRIPT-6: a text in a script written without spaces
    model = _Model(text, language, max_tokens, counter, scope_prefix)
    symbols: list[tuple[int, str]] = []
    pieces: list[_Piece] | None = None
    if language is None:
        parser = "lines: no language"
    else:
        tree = parse(text, language)
        nodes = _nodes(tree.root_node)
        # a missing hidden token (C's "#include <x> \n") is in no node's children: only the
        # root's has_error sees it
        error = any(node.type == "ERROR" or node.is_missing for node, _ in nodes)
        if error or tree.root_node.has_error:
            parser = "lines: syntax error"
        else:
            parser = "tree-sitter"
            root = tree.root_node
            items = model.items(root)
            a, b = model.cp(root.start_byte), model.cp(root.end_byte)
            if text[:a].strip():  # the text before and after the root node
                lead = len(text[:a]) - len(text[:a].lstrip())
                items.insert(0, _Item(lead, len(text[:a].rstrip()), [], True))
            if text[b:].strip():
                lead = len(text[b:]) - len(text[b:].lstrip())
                items.append(_Item(b + lead, b + len(text[b:].rstrip()), [], True))
            limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(limit, 10_000))
            try:
                pieces = model.pack(items, (), 0)
                symbols = model.symbols(root)
            except _TooDeep:
                parser = f"lines: nested deeper than {MAX_DEPTH}"
            finally:
                sys.setrecursionlimit(limit)
    if pieces is None:
        pieces = model.lines()
    out = []
    for piece in pieces:
        path = (title, *(s.label for s in piece.scopes))
        if piece.own is not None:
            path = (*path, piece.own.label)
        code = {
            "language": language,
            "parser": parser,
            "lines": [model.line_number(piece.start), model.line_number(piece.end - 1)],
            "symbols": [name for at, name in symbols if piece.start <= at < piece.end],
        }
        out.append(
            ModelRecord(
                piece.start, piece.end, model.prefix_at(piece.scopes, piece.start), path, code
            )
        )
    return out

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

The waiting items of CODE-6 are a plain list, the next first; an opened item's items take
its place in it, an opened definition's followed by an ``end`` item.

Where the spec leaves a choice open, the model says so where it chooses: a zero-width
(missing) child is no item; a definition already in the item's scopes (a wrapper's, opened
already) opens no scope again; a file chunked by lines has no ``symbols`` (CODE-11); a
grapheme cluster over the budget after a run that fits ends that run (text order).
"""

from __future__ import annotations

import importlib
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import tree_sitter

from chunkspec._code._languages import LANGUAGES
from chunkspec._core._graphemes import grapheme_bounds
from chunkspec._core._units import has_cluster_script, unit_spans
from properties.subword_model import model_spans

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
    return tree_sitter.Parser(lang).parse(text.encode("utf-16-le"), encoding="utf16le")


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
class _Scope:
    key: tuple[int, int, str]  # the definition node: start byte, end byte, type
    label: str
    header: str
    start: int
    body: int | None  # where its body field starts


@dataclass
class _Item:
    start: int
    end: int
    nodes: list[Any] = field(default_factory=list)  # the syntax nodes it holds
    kind: str = "nodes"  # nodes, text (no node covers it), line, word, atom, end
    scopes: tuple[_Scope, ...] = ()  # the definitions it lies in (CODE-5)
    depth: int = 0  # how many openings made it (CODE-3)
    head: bool = False  # before the body of the opened definition holding it (CODE-6)


@dataclass
class _Piece:
    start: int
    end: int
    scopes: tuple[_Scope, ...]
    own: _Scope | None


class _Model:
    def __init__(
        self,
        text: str,
        language: str | None,
        max_tokens: int,
        counter: str,
        prefix: bool,
        group_scopes: bool,
    ) -> None:
        self.text = text
        self.data = text.encode("utf-16-le")
        self.language = None if language is None else LANGUAGES[language]
        self.max_tokens = max_tokens
        self.counter = counter
        self.prefix = prefix
        self._cp: dict[int, int] = {}
        self.group_scopes = group_scopes
        self.out: list[_Piece] = []

    # CODE-2: a byte offset as a code point offset, naively
    def cp(self, offset: int) -> int:
        if offset not in self._cp:
            self._cp[offset] = len(self.data[:offset].decode("utf-16-le"))
        return self._cp[offset]

    def count(self, text: str) -> int:
        if self.counter == "whitespace":
            return len(text.split())
        if self.counter == "unicode":  # SCRIPT-3's units
            return len(unit_spans(text))
        if self.counter == "subword":  # SCRIPT-30..SCRIPT-33, by the literal model
            return len(model_spans(text))
        assert self.counter.startswith("chars")
        n = int(self.counter[len("chars") :])
        return -(-len(text) // n)

    # CODE-8: the prefix at ``a``: the first lines of the definitions whose first line ends
    # before ``a``; none when they count more than half the budget together
    def prefix_at(self, scopes: tuple[_Scope, ...], a: int) -> str:
        if not self.prefix:
            return ""
        lines = []
        for s in scopes:
            first_line = self.text[s.start :].replace("\r", "\n").split("\n", 1)[0]
            if s.start + len(first_line) < a:
                lines.append(s.header + "\n")
        prefix = "".join(lines)
        return prefix if self.count(prefix) <= self.max_tokens // 2 else ""

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
            # CODE-7 names C's struct_specifier and enum_specifier; the fast code (and
            # sense: a forward declaration "class Foo;" defines nothing) asks a body of
            # every *_specifier, C++'s class_specifier and union_specifier too
            if node.type.endswith("_specifier"):
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
        body_start = None if body is None else self.cp(body.start_byte)
        return _Scope(key, label[:LABEL_LIMIT], header, start, body_start)

    # -- CODE-5: items
    def items(self, node: Any, scopes: tuple[_Scope, ...], depth: int) -> list[_Item]:
        a, b = self.cp(node.start_byte), self.cp(node.end_byte)
        covered = [False] * (b - a)
        found: list[_Item] = []
        for child in node.children:
            c, d = self.cp(child.start_byte), self.cp(child.end_byte)
            if d > c:  # a zero-width (missing) child is no item
                found.append(_Item(c, d, [child], "nodes", scopes, depth))
            for k in range(c, d):
                covered[k - a] = True
        position = a
        while position < b:  # each run of text no child covers, trimmed
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
                found.append(_Item(position + lead, run_end - trail, [], "text", scopes, depth))
            position = run_end
        return self.group(sorted(found, key=lambda item: item.start))

    def comment_only(self, item: _Item) -> bool:
        return item.kind == "nodes" and all(map(self.is_comment, item.nodes))

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
                last.end = item.end
                last.nodes = last.nodes + item.nodes
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
            for above in run[1:]:
                if self.blank_line(segment[-1].end, above.start):
                    out.extend(segment)
                    segment = []
                segment.append(above)
            if j < len(trailed) and not self.blank_line(segment[-1].end, trailed[j].start):
                target = trailed[j]
                target.start = segment[0].start
                target.nodes = [n for c in segment for n in c.nodes] + target.nodes
                out.append(target)
                k = j + 1
            else:
                out.extend(segment)
                k = j
        return out

    # -- CODE-5, CODE-6: what an item is
    def documents(self, item: _Item) -> bool:
        """Its nodes are all comments or anonymous tokens."""
        return item.kind == "nodes" and all(
            self.is_comment(n) or not n.is_named for n in item.nodes
        )

    def closes(self, item: _Item) -> bool:
        """Its nodes are all anonymous tokens."""
        return item.kind == "nodes" and all(not n.is_named for n in item.nodes)

    def defines(self, item: _Item) -> _Scope | None:
        """The definition an item is: one node (and what documents it) that is one."""
        if item.kind != "nodes":
            return None
        nodes = [n for n in item.nodes if not self.is_comment(n)]
        return self.scope(nodes[0]) if len(nodes) == 1 else None

    def piece(self, run: list[_Item]) -> None:
        """CODE-6: a piece of ``run``, in its first item's scopes; CODE-10: trimmed."""
        a, b = run[0].start, run[-1].end
        own = self.defines(run[0]) if len(run) == 1 else None
        while a < b and self.text[a].isspace():
            a += 1
        while b > a and self.text[b - 1].isspace():
            b -= 1
        if b > a:
            self.out.append(_Piece(a, b, run[0].scopes, own))

    # -- CODE-6: packing, one item at a time
    def pack(self, waiting: list[_Item]) -> None:
        self.out = []
        while waiting:
            if waiting[0].kind == "end":  # 1. the end of an opened definition
                waiting.pop(0)
                if self.out:
                    last = self.out[-1]
                    while (
                        waiting
                        and self.closes(waiting[0])
                        and self.fits(last.scopes, last.start, waiting[0].end)
                    ):
                        last.end = waiting.pop(0).end
                continue
            ends = [j for j, item in enumerate(waiting) if item.kind == "end"]
            available = ends[0] if ends else len(waiting)
            first = waiting[0]
            k = 0  # 2. the run: grown one item at a time while it fits
            while k < available and self.fits(first.scopes, first.start, waiting[k].end):
                k += 1
            if k == available:
                self.piece(waiting[:k])
                del waiting[:k]
                continue
            following = waiting[k]
            if k and self.fits(following.scopes, following.start, following.end):
                body = (
                    k + 1 < len(waiting)
                    and waiting[k + 1].kind == "end"
                    and following.kind == "nodes"
                    and len(following.nodes) == 1
                    and following.nodes[0].child_count > 0
                    and self.defines(following) is None
                )
                if body:  # 3. the body of an opened definition opens
                    self.open(waiting, k)
                    continue
                if not self.line_break(waiting[k - 1].end, following.start):
                    breaks = [j for j in range(1, k)
                              if self.line_break(waiting[j - 1].end, waiting[j].start)]  # fmt: skip
                    if breaks:
                        k = breaks[-1]
                self.piece(waiting[:k])
                del waiting[:k]
                continue
            # 4. following is over the budget alone (or the run is empty)
            starts = k and self.defines(following) is not None
            if starts and any(not (x.head or self.documents(x)) for x in waiting[:k]):
                self.piece(waiting[:k])  # a definition starts a piece
                del waiting[:k]
                continue
            self.open(waiting, k)

    def open(self, waiting: list[_Item], k: int) -> None:
        """5. ``waiting[k]`` opens: what takes its place."""
        item = waiting[k]
        depth = item.depth + 1
        if depth > MAX_DEPTH:
            raise _TooDeep
        scopes = item.scopes
        inner = self.defines(item)
        if inner is not None and any(s.key == inner.key for s in scopes):
            inner = None  # a wrapper's definition, opened already
        if inner is not None:
            scopes = (*scopes, inner)
            group = item.kind == "nodes" and len(item.nodes) > 1
            takes = self.group_scopes or not group
            if takes and k and all(self.documents(x) for x in waiting[:k]):
                for x in waiting[:k]:  # the run documents the definition: its scopes
                    x.scopes = scopes
        placed: list[_Item]
        if item.kind == "nodes" and len(item.nodes) > 1:
            placed = []
            documented = True  # the comments before the definition are in its scopes
            for node in item.nodes:
                if inner is not None and not self.is_comment(node):
                    documented = False
                where = scopes if inner is not None and documented else item.scopes
                a, b = self.cp(node.start_byte), self.cp(node.end_byte)
                placed.append(_Item(a, b, [node], "nodes", where, depth))
        elif item.kind == "nodes" and item.nodes[0].type == "ERROR":
            placed = self.lines(item.start, item.end, scopes, depth)
        elif item.kind == "nodes" and item.nodes[0].child_count:
            placed = self.items(item.nodes[0], scopes, depth)
            if inner is not None:
                for x in placed:
                    x.head = inner.body is not None and x.start < inner.body
                placed.append(_Item(item.end, item.end, [], "end", item.scopes, depth))
        else:
            words = [
                _Item(item.start + m.start(), item.start + m.end(), [], "word", scopes, depth)
                for m in re.finditer(r"\S+", self.text[item.start : item.end])
            ]
            if len(words) > 1:
                placed = words
            elif len(grapheme_bounds(self.text, item.start, item.end)) == 2:
                # a single grapheme cluster over the budget is a piece by itself (after
                # the run before it, which is a piece of its own: text order)
                if k:
                    self.piece(waiting[:k])
                self.piece([item])
                del waiting[: k + 1]
                return
            else:
                placed = [
                    _Item(a, b, [], "atom", scopes, depth)
                    for a, b in self.script8(item.start, item.end, scopes)
                ]
        waiting[k : k + 1] = placed

    # -- SCRIPT-8: a word over the budget
    def script8(self, a: int, b: int, scopes: tuple[_Scope, ...]) -> list[tuple[int, int]]:
        starts = [s for s, _ in unit_spans(self.text, a, b)]
        bounds = [a, *starts[1:], b]
        return self.longest_runs(list(itertools.pairwise(bounds)), scopes, self.clusters)

    def clusters(self, a: int, b: int, scopes: tuple[_Scope, ...]) -> list[tuple[int, int]]:
        bounds = grapheme_bounds(self.text, a, b)
        return self.longest_runs(list(itertools.pairwise(bounds)), scopes, lambda c, d, _: [(c, d)])

    def longest_runs(self, steps: list[tuple[int, int]], scopes: tuple[_Scope, ...],
                     finer: Any) -> list[tuple[int, int]]:  # fmt: skip
        """The longest runs of ``steps`` that fit, grown one step at a time (each fitted
        with the prefix at its own start); a step over the budget alone goes ``finer``."""
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

    # -- CODE-4: lines
    def lines(self, a: int, b: int, scopes: tuple[_Scope, ...], depth: int) -> list[_Item]:
        out = []
        start = 0
        for match in [*_LINE_BREAK.finditer(self.text), None]:
            end = len(self.text) if match is None else match.start()
            lo, hi = max(start, a), min(end, b)
            line = self.text[lo:hi] if lo < hi else ""
            if line.strip():
                lead = len(line) - len(line.lstrip())
                out.append(_Item(lo + lead, lo + len(line.rstrip()), [], "line", scopes, depth))
            if match is not None:
                start = match.end()
        return out

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
            if name is None and node.type == "type_declaration":  # Go: its first spec's
                specs = [c for c in node.named_children if c.child_by_field_name("name")]
                name = specs[0].child_by_field_name("name") if specs else None
            if name is not None:
                word = self.data[name.start_byte : name.end_byte].decode("utf-16-le")
                out.append((self.cp(node.start_byte), " ".join(word.split())))
        return sorted(out)

    def line_number(self, at: int) -> int:
        return len(_LINE_BREAK.findall(self.text[:at])) + 1


def model_records(
    text: str,
    language: str | None,
    max_tokens: int,
    counter: str = "subword",  # SCRIPT-35: the code strategy's default
    scope_prefix: bool = False,
    title: str = "x",
    group_scopes: bool = True,
) -> list[ModelRecord]:
    """The records of the ``code`` strategy on ``text``, rule by rule.

    ``group_scopes=False`` reads CODE-6's step 5 as the fast code does: the documenting run
    before ``F`` takes ``F``'s scopes only when ``F`` is one definition node, not an item of
    several nodes (comments with the definition they document); the spec's words say any
    ``F`` that "is a definition" (test_code.py, test_a_run_takes_the_scopes_of_a_group)."""
    if counter == "whitespace" and has_cluster_script(text):
        counter = "unicode"  # SCRIPT-6: a text in a script written without spaces
    model = _Model(text, language, max_tokens, counter, scope_prefix, group_scopes)
    symbols: list[tuple[int, str]] = []
    pieces: list[_Piece] | None = None
    if language is None:
        parser = "lines: no language"
    else:
        tree = parse(text, language)
        root = tree.root_node
        # CODE-3: a tree with errors is used; a missing hidden token (C's "#include <x> \n")
        # is in no node's children, only the root's has_error sees it
        error = any(node.type == "ERROR" or node.is_missing for node, _ in _nodes(root))
        parser = "tree-sitter with errors" if error or root.has_error else "tree-sitter"
        if root.type == "ERROR":  # a root that is one error node: its lines
            items = model.lines(0, len(text), (), 0)
        else:
            items = model.items(root, (), 0)
            a, b = model.cp(root.start_byte), model.cp(root.end_byte)
            if text[:a].strip():  # the text before and after the root node
                lead = len(text[:a]) - len(text[:a].lstrip())
                items.insert(0, _Item(lead, len(text[:a].rstrip()), [], "text"))
            if text[b:].strip():
                lead = len(text[b:]) - len(text[b:].lstrip())
                items.append(_Item(b + lead, b + len(text[b:].rstrip()), [], "text"))
        try:
            model.pack(items)
            pieces = model.out
            symbols = model.symbols(root)
        except _TooDeep:
            parser = f"lines: nested deeper than {MAX_DEPTH}"
    if pieces is None:
        model.pack(model.lines(0, len(text), (), 0))
        pieces = model.out
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

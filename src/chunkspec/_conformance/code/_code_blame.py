"""Blame by rule for ``chunk_code`` (CONF-9): models of a port's classic mistakes, the
rules' own checks, and the rule a differing field names.

A model is the reference run with one step switched to the mistake (the split of
``_code/_split.py`` with one of its helpers replaced for the run, or the answer's offsets
counted in UTF-16 units): the whole answer a port with that one mistake gives. A model that
equals the port's answer (and not the reference's) names the rule the step implements.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any

from ..._code import _split
from ._code_ops import chunk_code

__all__ = ["CODE_CHECKS", "code_error_rules", "code_field_rules", "code_mistakes"]

Check = Callable[[dict[str, Any], Any], bool]

_REAL_BREAKS = _split._breaks
_REAL_BLANK = _split._blank
_REAL_IS_COMMENT = _split._is_comment


def _grouped(trailing: bool, above: bool) -> Callable[[str, list[Any]], list[Any]]:
    """CODE-5's grouping with its trailing-comment step (``trailing``) or its
    comments-above step (``above``) switched off: ``_split._grouped`` otherwise."""

    def grouped(text: str, raw: list[Any]) -> list[Any]:
        out: list[Any] = []
        pending: list[Any] = []
        for item in raw:
            comment = len(item.nodes) == 1 and _split._is_comment(item.nodes[0])
            if (
                trailing
                and comment
                and not pending
                and out
                and out[-1].kind == _split.NODES
                and not _REAL_BREAKS(text, out[-1].end, item.start)
            ):
                last = out[-1]
                last.end = item.end
                last.nodes.extend(item.nodes)
                continue
            if pending and (not above or _REAL_BLANK(text, pending[-1].end, item.start)):
                out.extend(pending)
                pending = []
            if comment:
                pending.append(item)
                continue
            if pending and item.kind == _split.NODES:
                nodes = [n for p in pending for n in p.nodes] + item.nodes
                item = _split._Item(pending[0].start, item.end, nodes, item.scopes, item.depth)
                pending = []
            out.extend(pending)
            pending = []
            out.append(item)
        out.extend(pending)
        return out

    return grouped


def _no_wrappers(node: Any, language: Any) -> Any | None:
    """CODE-7 without wrappers: only a node of a definition type is a definition."""
    return node if node is not None and node.type in language.definitions else None


def _fits_without_prefix(self: Any, scopes: Any, start: int, end: int) -> bool:
    """CODE-6's fit with CODE-8's prefix left out of the count."""
    return bool(self.measure(start, end, "") <= self.max_tokens)


#: ``(mistake, rules, {name in _split: replacement})``: the split's steps a mistake changes.
_STEPS: list[tuple[str, list[str], dict[str, Any]]] = [
    (
        "takes only comments as documentation: a decorator or a Rust attribute is an item of "
        "its own",
        ["CODE-5"],
        {"_is_comment": lambda node: "comment" in node.type},
    ),
    (
        "leaves a trailing comment apart from the item whose line it ends",
        ["CODE-5"],
        {"_grouped": _grouped(trailing=False, above=True)},
    ),
    (
        "leaves the comments right above an item apart from it",
        ["CODE-5"],
        {"_grouped": _grouped(trailing=True, above=False)},
    ),
    (
        "ends a run closed for room where it stops, not at its last line end",
        ["CODE-6"],
        {"_breaks": lambda text, end, start: True, "_grouped": _grouped(True, True)},
    ),
    (
        "joins the run before an oversized definition to its first piece even when the run "
        "holds more than comments",
        ["CODE-6"],
        {"_heads": lambda stack, k: True},
    ),
    (
        "takes a wrapper (decorated definition, export, template) for no definition",
        ["CODE-7"],
        {"definition_of": _no_wrappers},
    ),
]


@contextlib.contextmanager
def _switched(replacements: dict[str, Any]) -> Iterator[None]:
    """``_split``'s helpers replaced for the duration of one reference run."""
    saved = {name: getattr(_split, name) for name in replacements}
    try:
        for name, value in replacements.items():
            setattr(_split, name, value)
        yield
    finally:
        for name, value in saved.items():
            setattr(_split, name, value)


def _utf16_model(data: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """CODE-2, PORT-2: every offset counted in UTF-16 code units (web-tree-sitter's)."""
    table = [0]
    for ch in data["text"]:
        table.append(table[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return {
        **expected,
        "spans": [
            {**s, "start": table[s["start"]], "end": table[s["end"]]} for s in expected["spans"]
        ],
    }


def _run(data: dict[str, Any]) -> dict[str, Any]:
    return chunk_code(**data)


def code_mistakes(data: dict[str, Any], expected: Any) -> Iterator[tuple[str, list[str], Any]]:
    """``(mistake, rules, answer)`` for each modelled mistake of a port's code strategy."""
    if not isinstance(expected, dict) or not isinstance(data.get("text"), str):
        return
    yield (
        "counts offsets in UTF-16 code units, not code points (HAZ-16)",
        ["CODE-2"],
        _utf16_model(data, expected),
    )
    if not str(expected.get("parser", "")).startswith("tree-sitter"):
        return  # split by lines (no language, too deep): the split's steps play no part
    for mistake, rules, replacements in _STEPS:
        with _switched(replacements):
            answer = _run(data)
        yield mistake, rules, answer
    if data.get("scope_prefix") is True:
        saved = _split._Splitter.fits
        try:
            _split._Splitter.fits = _fits_without_prefix  # type: ignore[method-assign]
            answer = _run(data)
        finally:
            _split._Splitter.fits = saved  # type: ignore[method-assign]
        yield "leaves the scope prefix out of the budget", ["CODE-8"], answer


def _spans(answer: Any) -> list[dict[str, Any]] | None:
    if not isinstance(answer, dict) or not isinstance(answer.get("spans"), list):
        return None
    spans = answer["spans"]
    return spans if all(isinstance(s, dict) for s in spans) else None


def _trimmed_pieces(data: dict[str, Any], answer: Any) -> bool:
    """CODE-10: every piece is trimmed of white space at both ends and not empty."""
    spans, text = _spans(answer), data.get("text")
    if spans is None or not isinstance(text, str):
        return True
    for s in spans:
        piece = text[s["start"] : s["end"]]
        if not piece or piece[0].isspace() or piece[-1].isspace():
            return False
    return True


def _covered(data: dict[str, Any], answer: Any) -> bool:
    """CODE-10: pieces in text order, never overlapping, only white space between them."""
    spans, text = _spans(answer), data.get("text")
    if spans is None or not isinstance(text, str):
        return True
    end = 0
    for s in spans:
        a, b = s["start"], s["end"]
        if type(a) is not int or type(b) is not int or not end <= a <= b <= len(text):
            return False
        if text[end:a].strip():
            return False
        end = b
    return not text[end:].strip()


def _in_budget(data: dict[str, Any], answer: Any) -> bool:
    """CODE-6, CODE-10 (whitespace counter): each record counts at most max_tokens words,
    its prefix included, unless it is one word."""
    spans, text = _spans(answer), data.get("text")
    if (
        spans is None
        or not isinstance(text, str)
        or data.get("counter", "whitespace") != "whitespace"
    ):
        return True
    limit = data.get("max_tokens")
    if type(limit) is not int:
        return True
    for s in spans:
        words = len((str(s.get("prefix", "")) + text[s["start"] : s["end"]]).split())
        if words > limit and words > 1:
            return False
    return True


#: ``chunk_code``'s rule checks (``_rules``): ``(rule, what, check, rules it explains)``.
CODE_CHECKS: list[tuple[str, str, Check, tuple[str, ...]]] = [
    ("CODE-10", "pieces in order, only white space between them", _covered, ()),
    ("CODE-10", "every piece trimmed of white space", _trimmed_pieces, ()),
    ("CODE-6", "each record within the budget, its prefix counted", _in_budget, ()),
]

#: The rule a differing leaf field names.
_FIELDS = {
    "parser": ["CODE-3"],
    "counter": ["SCRIPT-6"],
    "heading_path": ["CODE-7"],
    "prefix": ["CODE-8"],
    "symbols": ["CODE-11"],
    "lines": ["CODE-11"],
    "start": ["CODE-6"],
    "end": ["CODE-6"],
    "spans": ["CODE-6"],
}


def code_field_rules(field: str) -> list[str]:
    """The rule a first difference at ``field`` (``$.spans[2].heading_path[1]``) names."""
    parts = re.sub(r"\[\d+\]", "", field).split(".")
    for name in reversed(parts):
        if name in _FIELDS:
            return list(_FIELDS[name])
    return ["CODE-6"]


def code_error_rules(argument: str) -> list[str]:
    """The rules about a wrong argument: the text (CODE-2, HAZ-4), the language (CODE-1),
    the budget and counter (CODE-6), scope_prefix (CODE-8)."""
    return {
        "language": ["CODE-1"],
        "max_tokens": ["CODE-6"],
        "counter": ["CODE-6"],
        "scope_prefix": ["CODE-8"],
    }.get(argument, ["CODE-2"])

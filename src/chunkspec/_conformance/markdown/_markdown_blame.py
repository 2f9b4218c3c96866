"""Blame for the Markdown ops ``split_markdown`` and ``heading_aware`` (CONF-9).

Models of the classic porting mistakes, each beside the rule it breaks: offsets in UTF-16
code units (RECORD-3, HAZ-16), CRLF read as LF (MD-2, HAZ-13), markdown-it's JavaScript
``trim()`` (MD-4, HAZ-17), a heading path cut by list position (MD-7). Otherwise
the first record that differs decides: which field, and how its region differs (a table or
code block cut is MD-9, a ``#`` line of a code block turned into a heading MD-1, a body
chunk that starts elsewhere is overlap, HEAD-6...).
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..._text._blocks import Document
from ..._text._documents import SourceDocument
from ..._text._front_matter import mask_front_matter
from ..._text._lines import line_table
from ..._text._markdown import parse_markdown_blocks
from ..._text._markdown_it import token_blocks
from .._compare import first_difference
from .._wire import answer
from ._markdown_ops import heading_aware_with, markdown_answer, markdown_records

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = [
    "MARKDOWN_OPS",
    "markdown_by_field",
    "markdown_error_rules",
    "markdown_mistakes",
]

MARKDOWN_OPS = frozenset({"split_markdown", "heading_aware"})

_INTS = ("max_tokens", "overlap_tokens")


def markdown_error_rules(op: str, argument: str) -> list[str]:
    """The rules about the argument an error names (or should name)."""
    base = ["MD-8"] if op == "split_markdown" else ["HEAD-12"]
    leaf = argument.rsplit(".", 1)[-1] if argument else ""
    if leaf in _INTS:
        base = [*base, "PORT-1"]
    if leaf in ("text", "title", "doc_id"):
        base = [*base, "PORT-2"]
    return base


def _utf16(text: str, offset: int) -> int:
    """The UTF-16 index of code-point offset ``offset`` of ``text``."""
    return offset + sum(1 for c in text[:offset] if ord(c) > 0xFFFF)


def _utf16_model(data: dict[str, Any], expected: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records with UTF-16 offsets (JavaScript string indexes), else unchanged."""
    text = data["text"]
    return [
        {**r, "start": _utf16(text, r["start"]), "end": _utf16(text, r["end"])} for r in expected
    ]


def _crlf_model(op: str, data: dict[str, Any]) -> Any:
    """The oracle's answer for the text with every line break turned into LF."""
    text = re.sub("\r\n?", "\n", data["text"])
    if text == data["text"]:
        return None
    return markdown_answer(op, {**data, "text": text}).get("ok")


def _block_rule(name: str, trim: Callable[[str], str]) -> Any:
    """markdown-it-py's block rule ``name`` with ``trim`` as its ``mdTrim``: the rule's module
    run once more from its source as a private module (never put in ``sys.modules``), whose
    ``mdTrim`` is ``trim``. markdown-it-py's own module, and every parser using it, keep
    theirs."""
    spec = importlib.util.find_spec(f"markdown_it.rules_block.{name}")
    if spec is None or spec.loader is None:  # pragma: no cover - markdown-it-py's layout
        raise ImportError(f"markdown_it.rules_block.{name} has no source to load")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    vars(module)["mdTrim"] = trim
    return getattr(module, name)


@lru_cache(maxsize=1)
def _js_trim_parser() -> MarkdownIt:
    """The reference's markdown-it-py whose block rules trim as JavaScript's ``trim()`` does:
    ``mdTrim``'s set plus U+FEFF (HAZ-17), given to a private copy of each rule that trims
    (:func:`_block_rule`)."""
    from markdown_it import MarkdownIt
    from markdown_it.common.utils import MD_TRIM_CHARS
    from mdit_py_plugins.deflist import deflist_plugin

    js_set = MD_TRIM_CHARS + "\ufeff"

    def js_trim(string: str) -> str:
        return string.strip(js_set)

    md = MarkdownIt("commonmark").enable("table").use(deflist_plugin)
    md.disable("inline")
    alts = {rule.name: list(rule.alt) for rule in md.block.ruler.__rules__}
    for name in ("heading", "lheading", "paragraph", "table"):
        md.block.ruler.at(name, _block_rule(name, js_trim), {"alt": alts[name]})
    return md


def _js_trim_model(op: str, data: dict[str, Any]) -> Any:
    """The oracle's records had markdown-it-py trimmed with JavaScript's ``trim()``."""
    text = data.get("text")
    if not isinstance(text, str) or "\ufeff" not in text:
        return None
    try:
        masked = mask_front_matter(text)  # FM-2, as parse_markdown_blocks does
        blocks = token_blocks(masked, *line_table(masked), _js_trim_parser())
        document = SourceDocument(
            doc_id=data["doc_id"],
            text=text,
            format="markdown",
            title=data["title"],
            parsed=Document(data["doc_id"], text, tuple(blocks)),
        )
        keys = ("max_tokens", "overlap_tokens", "count_headings", "split_tables")
        return markdown_records(op, document, **{k: data[k] for k in keys if k in data})
    except (TypeError, ValueError, KeyError):
        return None


def _no_sentences_model(op: str, data: dict[str, Any]) -> Any:
    """heading_aware's answer had it split an oversized block by words only, never on
    sentences first (HEAD-7): the reference given one sentence per block."""

    def whole(_source: str, start: int, end: int) -> list[tuple[int, int]]:
        return [(start, end)]

    return answer(heading_aware_with(whole), op, data).get("ok")


def _position_path_model(data: dict[str, Any], expected: list[dict[str, Any]]) -> Any:
    """split_markdown records under ``heading_path[: level - 1] + [title]`` (not MD-7)."""
    marks: list[tuple[int, list[str]]] = []
    path: list[str] = []
    for block in parse_markdown_blocks(data["text"]):
        if block.kind == "heading":
            path = [*path[: block.level - 1], block.text]
            marks.append((block.start, path))
    out = []
    for r in expected:
        seed = next((p for at, p in reversed(marks) if at <= r["start"]), [])
        section = seed[-1] if seed and seed[-1].strip() else None
        out.append({**r, "heading_path": seed, "section": section})
    return out


def markdown_mistakes(
    op: str, data: dict[str, Any], expected: Any
) -> Iterator[tuple[str, list[str], Any]]:
    """Yield ``(mistake, rules, answer)`` for each modelled mistake; a model that does not
    apply to this input (no CR, no U+FEFF) gives ``expected``."""

    def or_expected(model: Any) -> Any:
        return expected if model is None else model

    yield (
        "indexes UTF-16 code units (JavaScript string offsets, HAZ-16)",
        ["RECORD-3"],
        _utf16_model(data, expected),
    )
    yield "reads CRLF line breaks as LF (HAZ-13)", ["MD-2"], or_expected(_crlf_model(op, data))
    yield (
        "parses with JavaScript's trim(), which strips U+FEFF (HAZ-17)",
        ["MD-4"],
        or_expected(_js_trim_model(op, data)),
    )
    if op == "split_markdown":
        yield (
            "cuts the heading path by list position (heading_path[: level - 1])",
            ["MD-7"],
            _position_path_model(data, expected),
        )
    else:
        yield (
            "splits a block over the budget by words only, not on sentences first",
            ["HEAD-7"],
            or_expected(_no_sentences_model(op, data)),
        )


_FIELD_RULES = {
    "section": ["RECORD-12"],
    "strategy": ["RECORD-6"],
    "metadata": ["META-4"],
    "counter": ["RECORD-5"],
    "content_hash": ["RECORD-2"],
    "id": ["RECORD-2"],
    "index": ["RECORD-2"],
    "doc_id": ["RECORD-1"],
    "title": ["RECORD-1"],
    "source": ["RECORD-1"],
    "page_start": ["RECORD-14"],
    "page_end": ["RECORD-14"],
    "tokens": ["RECORD-14"],
    "oversized": ["RECORD-14"],
    "prefix": ["MD-11"],
}

_HASH_LINE = re.compile(r"(?m)^ {0,3}#")


def _blank(text: str) -> bool:
    """Python's ``not text.strip()``."""
    return not text.strip()


def markdown_by_field(op: str, expected: Any, actual: Any) -> list[str]:
    """The rules the first differing record pins down; [] when it does not."""
    if not isinstance(actual, list) or not all(isinstance(r, dict) for r in actual):
        return ["CONF-3"]
    k = next(
        (i for i, (e, a) in enumerate(zip(expected, actual, strict=False)) if e != a),
        min(len(expected), len(actual)),
    )
    e = expected[k] if k < len(expected) else None
    a = actual[k] if k < len(actual) else None
    blank_rule = "MD-8" if op == "split_markdown" else "HEAD-10"
    if a is not None and isinstance(a.get("text"), str) and _blank(a["text"]):
        return [blank_rule]  # a whitespace-only chunk
    if e is None or a is None:
        return []
    found = first_difference(e, a)
    leaf = found[0].rsplit(".", 1)[-1] if found else ""
    if leaf in ("heading_path", "parent_id") or (found and "heading_path" in found[0]):
        return ["MD-7"] if op == "split_markdown" else ["HEAD-4"]
    if leaf not in ("text", "start", "end", "kind"):
        return _FIELD_RULES.get(leaf, [])
    if op == "heading_aware":
        if a.get("kind") != e["kind"]:
            return ["HEAD-8"] if a.get("start") == e["start"] else ["HEAD-3"]
        if e["kind"] == "body" and a.get("start") != e["start"]:
            return ["HEAD-6"]  # the body starts elsewhere: its overlap differs
        return ["HEAD-5"]
    inside = (
        isinstance(a.get("start"), int)
        and isinstance(a.get("end"), int)
        and e["start"] <= a["start"] <= a["end"] <= e["end"]
        and (a["start"], a["end"]) != (e["start"], e["end"])
    )
    if e["kind"] in ("table", "code") and inside:
        body = e["text"].split("\n", 1)[1] if "\n" in e["text"] else ""
        if e["kind"] == "code" and _HASH_LINE.search(body):
            return ["MD-1"]  # a '#' line inside a code block was taken for a heading
        return ["MD-9"]  # a table or code block was cut
    if a.get("kind") != e["kind"]:
        return ["MD-1", "MD-7"]
    return ["MD-10"]

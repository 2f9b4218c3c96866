"""Blame by rule for ``chunk_document`` (CONF-9): models of a port's classic mistakes in
reading a raw file, and the rule a differing field or a wrong error names.

Each model is the reference run with one step switched to the mistake: the file read as
plain text whatever the strategy (NPM-5), the front matter windowed by ``window`` and
``pages`` (FM-2), a chunk's heading path taken from the headings whose title, not whose
line, starts at or before it (RECORD-12). A model that equals the port's answer (and not
the reference's) names the rule.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import Any

from ..._chunkers._options import options_of
from ..._chunkers._strategies import STRATEGIES
from ..._records._chunk_document import chunk_document, records_of, script_options
from ..._text._documents import document_from_text
from ._documents_ops import document_records

__all__ = ["document_error_rules", "document_field_rules", "document_mistakes"]


def _as_text(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The file read as plain text, whatever ``input_format`` says."""
    return document_records(**{**data, "input_format": "text"})


def _front_matter_windowed(data: dict[str, Any]) -> list[dict[str, Any]]:
    """``window`` and ``pages`` over the whole text, front matter included (its fields and
    title still read)."""
    document = document_from_text(
        data["text"], doc_id=data["doc_id"], input_format=data.get("input_format", "markdown")
    )
    object.__setattr__(document, "front_matter", None)  # body_start 0: the mistake
    records = chunk_document(document, data["strategy"], max_tokens=data["max_tokens"])
    return [r.to_dict() for r in records]


def _title_start_paths(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each chunk's heading path by the last heading whose TITLE starts at or before it."""
    document = document_from_text(
        data["text"], doc_id=data["doc_id"], input_format=data.get("input_format", "markdown")
    )
    if not document.text or document.text.isspace():
        return []
    options = script_options(
        document, options_of(data["strategy"], {"max_tokens": data["max_tokens"]})
    )
    titles: list[int] = []
    paths: list[tuple[str, ...]] = []
    stack: list[tuple[int, tuple[str, ...]]] = []
    for block in document.blocks().blocks:
        if block.kind != "heading":
            continue
        while stack and stack[-1][0] >= block.level:
            stack.pop()
        here = (*stack[-1][1], block.text) if stack else (block.text,)
        stack.append((block.level, here))
        titles.append(block.start)
        paths.append(here)
    spans = []
    for span in STRATEGIES[options.strategy].spans(document, options):
        if span.heading_path is None:
            i = bisect.bisect_right(titles, span.start)
            span = span._replace(heading_path=paths[i - 1] if i else ())
        spans.append(span)
    return [r.to_dict() for r in records_of(document, options, spans)]


def document_mistakes(data: dict[str, Any], expected: Any) -> Iterator[tuple[str, list[str], Any]]:
    """Yield ``(mistake, rules, answer)`` for each modelled mistake."""
    if data.get("input_format", "markdown") != "markdown":
        return
    yield (
        "reads a Markdown file as plain text (no title, front matter or headings)",
        ["NPM-5"],
        _as_text(data),
    )
    if data["strategy"] in ("window", "pages"):
        yield "windows the front matter", ["FM-2"], _front_matter_windowed(data)
        yield (
            "takes a window's heading path from the headings whose title starts before it",
            ["RECORD-12"],
            _title_start_paths(data),
        )


#: The rule a differing record field names.
_FIELDS = {
    "heading_path": ["RECORD-12"],
    "section": ["RECORD-12"],
    "key": ["RECORD-12"],
    "title": ["SOURCE-5"],
    "metadata": ["META-3"],
    "start": ["FM-2"],
    "end": ["FM-2"],
}


def document_field_rules(leaf: str) -> list[str]:
    """The rules a differing field of a record names (NPM-1 for the rest: the chunkers')."""
    return _FIELDS.get(leaf, ["NPM-1"])


def document_error_rules(argument: str) -> list[str]:
    """The rules about the argument an error names (none: TRUST-3's refusal of the file)."""
    return {
        "": ["TRUST-3", "NPM-5"],
        "doc_id": ["PORT-2"],
        "text": ["PORT-2"],
        "max_tokens": ["PORT-1"],
        "strategy": ["NPM-1"],
        "input_format": ["NPM-5"],
    }.get(argument, ["NPM-2"])

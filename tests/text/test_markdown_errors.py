"""Exact error messages of the Markdown, block, heading-aware and sentence functions.

Goldens pin the error type and the argument name; a user also reads the message, so it is
pinned here (format of ``_errors.py``: ``ARG must be EXPECTED, got TYPE VALUE``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from chunkspec import HeadingAwareChunker, parse_markdown, split_markdown, split_sentences
from chunkspec.markdown import ChunkContext, document_from_blocks, parse_text

KINDS = "code, definition, heading, html, list, paragraph, quote, reference, table, thematic_break"

CASES: list[tuple[str, Callable[[], object], type[Exception], str, str]] = [
    ("ctx-tenant", lambda: ChunkContext(1), TypeError, "tenant_id",  # type: ignore[arg-type]
     "tenant_id must be a str, got int 1"),
    ("ctx-corpus", lambda: ChunkContext("", 1), TypeError, "corpus_id",  # type: ignore[arg-type]
     "corpus_id must be a str, got int 1"),
    ("ctx-acl", lambda: ChunkContext("", "", ["a"]), TypeError, "acl_labels",  # type: ignore[arg-type]
     "acl_labels must be a tuple of str, got list ['a']"),
    ("ctx-acl-item", lambda: ChunkContext("", "", ("a", 2)), TypeError,  # type: ignore[arg-type]
     "acl_labels[1]", "acl_labels[1] must be a str, got int 2"),
    ("text-id", lambda: parse_text(1, ""), TypeError, "document_id",  # type: ignore[arg-type]
     "document_id must be a str, got int 1"),
    ("text-text", lambda: parse_text("d", 1), TypeError, "text",  # type: ignore[arg-type]
     "text must be a str, got int 1"),
    ("blocks-id", lambda: document_from_blocks(1, []), TypeError,  # type: ignore[arg-type]
     "document_id", "document_id must be a str, got int 1"),
    ("blocks-dict", lambda: document_from_blocks("d", {}), TypeError, "blocks",  # type: ignore[arg-type]
     "blocks must be a list of block objects, got dict {}"),
    ("blocks-item", lambda: document_from_blocks("d", [{"text": "a"}, 1]), TypeError,  # type: ignore[list-item]
     "blocks[1]", "blocks[1] must be an object, got int 1"),
    ("blocks-text", lambda: document_from_blocks("d", [{}]), TypeError, "blocks[0].text",
     "blocks[0].text must be a str, got NoneType None"),
    ("blocks-kind-type", lambda: document_from_blocks("d", [{"text": "a", "kind": 3}]),
     TypeError, "blocks[0].kind", "blocks[0].kind must be a str, got int 3"),
    ("blocks-type-key", lambda: document_from_blocks("d", [{"text": "a", "type": 3}]),
     TypeError, "blocks[0].kind", "blocks[0].kind must be a str, got int 3"),
    ("blocks-kind-value", lambda: document_from_blocks("d", [{"text": "a", "kind": "nope"}]),
     ValueError, "blocks[0].kind", f"blocks[0].kind must be one of {KINDS}, got 'nope'"),
    ("blocks-level-low",
     lambda: document_from_blocks("d", [{"text": "a", "kind": "heading", "level": 0}]),
     ValueError, "blocks[0].level", "blocks[0].level must be >= 1, got 0"),
    ("blocks-level-high",
     lambda: document_from_blocks("d", [{"text": "a", "kind": "heading", "level": 7}]),
     ValueError, "blocks[0].level", "blocks[0].level must be <= 6, got 7"),
    ("md-id", lambda: parse_markdown(1, ""), TypeError, "document_id",  # type: ignore[arg-type]
     "document_id must be a str, got int 1"),
    ("md-source", lambda: parse_markdown("d", b""), TypeError, "source",  # type: ignore[arg-type]
     "source must be a str, got bytes b''"),
    ("split-count-headings", lambda: split_markdown("d", "a", count_headings=1),  # type: ignore[arg-type]
     TypeError, "count_headings", "count_headings must be a bool, got int 1"),
    ("split-split-tables", lambda: split_markdown("d", "a", split_tables=None),  # type: ignore[arg-type]
     TypeError, "split_tables", "split_tables must be a bool, got NoneType None"),
    ("split-counter", lambda: split_markdown("d", "a", counter="abc"),
     TypeError, "counter",
     "counter must be a TokenCounter (an object with count(text)), got str 'abc'"),
    ("split-counter-int", lambda: split_markdown("d", "a", counter=3),  # type: ignore[arg-type]
     TypeError, "counter",
     "counter must be a TokenCounter (an object with count(text)), got int 3"),
    ("split-max-tokens", lambda: split_markdown("d", "a", 0), ValueError, "max_tokens",
     "max_tokens must be >= 1, got 0"),
    ("split-doc-id", lambda: split_markdown(1, "a"), TypeError, "doc_id",  # type: ignore[arg-type]
     "doc_id must be a str, got int 1"),
    ("split-source", lambda: split_markdown("d", 1), TypeError, "source",  # type: ignore[arg-type]
     "source must be a str, got int 1"),
    ("head-document", lambda: HeadingAwareChunker().chunk("x"), TypeError,  # type: ignore[arg-type]
     "document", "document must be a chunkspec.markdown.Document, got str 'x'"),
    ("head-context", lambda: HeadingAwareChunker().chunk(parse_text("d", "a"), "c"),  # type: ignore[arg-type]
     TypeError, "context", "context must be a chunkspec.markdown.ChunkContext, got str 'c'"),
    ("head-max", lambda: HeadingAwareChunker(0), ValueError, "max_tokens",
     "max_tokens must be >= 1, got 0"),
    ("head-overlap", lambda: HeadingAwareChunker(1, -1), ValueError, "overlap_tokens",
     "overlap_tokens must be >= 0, got -1"),
    ("head-counter", lambda: HeadingAwareChunker(counter=[]), TypeError, "counter",
     "counter must be a TokenCounter (an object with count(text)), got list []"),
    ("sentences-text", lambda: split_sentences(1), TypeError, "text",  # type: ignore[arg-type]
     "text must be a str, got int 1"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("call", "kind", "argument", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_error_message(
    call: Callable[[], object], kind: type[Exception], argument: str, message: str
) -> None:
    """MD-8, MD-13, HEAD-12, SENT-2: the error type, the argument it names, the message."""
    with pytest.raises(kind) as info:
        call()
    assert getattr(info.value, "argument", None) == argument
    assert str(info.value) == message


def test_unknown_markdown_parser_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """MD-14: CHUNKSPEC_MARKDOWN_PARSER must name one of the block scans."""
    from chunkspec._text._markdown import PARSER_VARIABLE

    monkeypatch.setenv(PARSER_VARIABLE, "commonmark-py")
    with pytest.raises(ValueError, match="commonmark-py") as info:
        split_markdown("d", "# a\n")
    assert getattr(info.value, "argument", None) == PARSER_VARIABLE


def test_reference_parser_is_selectable(monkeypatch: pytest.MonkeyPatch) -> None:
    """MD-14: markdown-it-py is selected explicitly by name and gives the same chunks."""
    from chunkspec._text._markdown import PARSER_VARIABLE, markdown_parser

    source = "# T\n\nalpha |\n---\n\n| a |\n|---|\n| 1 |\n"
    default = split_markdown("d", source)
    monkeypatch.setenv(PARSER_VARIABLE, "markdown-it-py")
    assert markdown_parser() == "markdown-it-py"
    assert split_markdown("d", source) == default

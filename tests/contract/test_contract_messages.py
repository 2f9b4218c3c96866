"""The contract suite's violation messages, exactly: a user reads them to fix a chunker.

Each check gets a chunker that breaks its rule in one known way; the message names the
rule, the subject and what is wrong (CONTRACT-1 to CONTRACT-7, docs/spec/markdown.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from chunkspec import parse_markdown
from chunkspec.contract import ContractViolation, Subject, run_check
from chunkspec.markdown import ChunkContext, Document, DocumentChunk

CONTEXT = ChunkContext("t", "c", ("a",))


def _chunk(n: int, text: str, **changes: object) -> DocumentChunk:
    chunk = DocumentChunk(
        f"d:{n}", "d", n, None, text, -1, -1, (), {"kind": "body"}, "t", "c", ("a",)
    )
    return dataclasses.replace(chunk, **changes)  # type: ignore[arg-type]


def _subject(make: Callable[[], list[DocumentChunk]], max_tokens: int | None = 3) -> Subject:
    return Subject("s", lambda document, context: make(), max_tokens)


def _message(subject: Subject, check: str, source: str = "one two\n") -> str:
    document: Document = parse_markdown("d", source)
    with pytest.raises(ContractViolation) as info:
        run_check(subject, check, document, CONTEXT)
    return str(info.value)


def test_positions_message() -> None:
    """CONTRACT-1: the positions, at most the first 20 of them."""
    subject = _subject(lambda: [_chunk(1, "one"), _chunk(0, "two")])
    assert _message(subject, "positions") == "CONTRACT-1: s: positions [1, 0] are not 0, 1, 2..."
    many = _subject(lambda: [_chunk(n + 1, "w", id=f"d:{n}") for n in range(25)])
    assert _message(many, "positions") == (
        f"CONTRACT-1: s: positions {list(range(1, 21))} are not 0, 1, 2..."
    )


def test_positions_message_for_a_missing_chunk() -> None:
    """CONTRACT-1: 0, 2 is not 0, 1 (a gap)."""
    subject = _subject(lambda: [_chunk(0, "one"), _chunk(2, "two")])
    assert _message(subject, "positions") == "CONTRACT-1: s: positions [0, 2] are not 0, 1, 2..."


def test_unique_ids_message() -> None:
    """CONTRACT-1: good positions but one id twice."""
    subject = _subject(lambda: [_chunk(0, "one"), _chunk(1, "two", id="d:0")])
    assert _message(subject, "positions") == "CONTRACT-1: s: chunk ids are not unique"


def test_parents_message() -> None:
    """CONTRACT-2: the chunk and the parent it names."""
    subject = _subject(lambda: [_chunk(0, "one", parent_id="d:1"), _chunk(1, "two")])
    assert _message(subject, "parents") == "CONTRACT-2: s: d:0 has parent 'd:1', not earlier"


def test_parent_may_be_any_earlier_chunk() -> None:
    """CONTRACT-2 holds for a parent two chunks back, and for None."""
    subject = _subject(
        lambda: [_chunk(0, "one"), _chunk(1, "x", parent_id="d:0"), _chunk(2, "y", parent_id="d:0")]
    )
    run_check(subject, "parents", parse_markdown("d", "one\n"), CONTEXT)


def test_context_message() -> None:
    """CONTRACT-3: what the chunk carries against what was expected."""
    subject = _subject(lambda: [_chunk(0, "one two", corpus_id="other")])
    assert _message(subject, "context") == (
        "CONTRACT-3: s: d:0 carries ('d', 't', 'other', ('a',)), expected ('d', 't', 'c', ('a',))"
    )


@pytest.mark.parametrize(
    "change",
    [{"document_id": "e"}, {"tenant_id": "u"}, {"corpus_id": "k"}, {"acl_labels": ("b",)}],
)
def test_context_checks_every_field(change: dict[str, object]) -> None:
    """CONTRACT-3: each of the four fields on its own is checked."""
    subject = _subject(lambda: [_chunk(0, "one two", **change)])
    assert _message(subject, "context").startswith("CONTRACT-3: s: d:0 carries ")


def test_no_blank_message() -> None:
    """CONTRACT-4: the blank text, quoted."""
    subject = _subject(lambda: [_chunk(0, "one two"), _chunk(1, " \n")])
    assert _message(subject, "no-blank") == "CONTRACT-4: s: d:1 has blank text ' \\n'"
    empty = _subject(lambda: [_chunk(0, "")])
    assert _message(empty, "no-blank") == "CONTRACT-4: s: d:0 has blank text ''"


def test_content_message() -> None:
    """CONTRACT-5: the first body word missing, by index."""
    subject = _subject(lambda: [_chunk(0, "one two")])
    assert _message(subject, "content", "# H\n\none two three\n") == (
        "CONTRACT-5: s: body word 2 ('three') is in no chunk"
    )


def test_content_order_matters_and_headings_are_not_body() -> None:
    """CONTRACT-5: words out of order are lost; heading words need not appear; a repeated
    (overlap) word is fine."""
    swapped = _subject(lambda: [_chunk(0, "two"), _chunk(1, "one")])
    assert _message(swapped, "content") == "CONTRACT-5: s: body word 1 ('two') is in no chunk"
    overlap = _subject(lambda: [_chunk(0, "x one"), _chunk(1, "one two")])
    run_check(overlap, "content", parse_markdown("d", "# Title\n\none two\n"), CONTEXT)


def test_budget_message_and_limit() -> None:
    """CONTRACT-6: count and budget; exactly max_tokens is within it."""
    subject = _subject(lambda: [_chunk(0, "one two three"), _chunk(1, "a b c d")])
    assert _message(subject, "budget") == "CONTRACT-6: s: d:1 has 4 > 3 tokens"
    unbudgeted = _subject(lambda: [_chunk(0, "a b c d e f")], max_tokens=None)
    run_check(unbudgeted, "budget", parse_markdown("d", "one\n"), CONTEXT)


def test_deterministic_message() -> None:
    """CONTRACT-7: two runs compared."""
    runs = iter([[_chunk(0, "one two")], [_chunk(0, "one  two")]])
    subject = _subject(lambda: next(runs))
    assert _message(subject, "deterministic") == "CONTRACT-7: s: two runs gave different chunks"


def test_default_context_is_the_sample_context() -> None:
    """run_check without a context uses sample_context() (tenant-7, corpus-3, staff, legal)."""
    subject = _subject(lambda: [_chunk(0, "one two")])
    with pytest.raises(ContractViolation, match=r"expected \('d', 'tenant-7', 'corpus-3'"):
        run_check(subject, "context", parse_markdown("d", "one two\n"))

"""Fuzz targets for Markdown and plain-text parsing, the block adapter, the two structural
chunkers and the sentence splitter (seeds 001 and 003, docs/spec/markdown.md).

Marked ``fuzz`` like ``properties/test_fuzz_core.py``: each target allows only a result
satisfying the chunker's one equation (``text == prefix + source[start:end]`` for
split_markdown, ``text == document.source[start:end]`` for blocks and heading-aware chunks)
or the documented TypeError/ValueError naming the argument (``properties/fuzzing.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.markdown_invariants import check_heading_aware, check_split_markdown

from chunkspec import HeadingAwareChunker, parse_markdown, split_markdown, split_sentences
from chunkspec._text._blocks import BLOCK_KINDS
from chunkspec.counters import CharEstimateCounter, WhitespaceCounter
from chunkspec.markdown import ChunkContext, Document, document_from_blocks, parse_text

from .fuzzing import (
    MAX_SAFE,
    TYPE,
    VALUE,
    any_char,
    anything,
    either,
    fuzz_texts,
    int_problem,
    json_values,
    outcome,
    str_problem,
    text_problem,
)
from .models import model_lines, model_sentences
from .strategies import markdown_documents

pytestmark = pytest.mark.fuzz

#: The shared invariant checkers (tests/markdown_invariants.py) are quadratic: use them
#: below this size; the one equation is checked at every size.
_CHECK_LIMIT = 5_000

#: Markdown-looking soup: structure characters, line ends of every kind, controls, NUL.
_MD_ALPHABET = "#>-*_`~|=+:[]()!.1 \t\n\r\x00\x0b\x0c\u2028\u00e9a"

#: Sources: real-looking Markdown, structure soup, deep nesting, unclosed fences, anything.
md_sources = st.one_of(
    markdown_documents(),
    st.text(st.sampled_from(_MD_ALPHABET), max_size=120),
    st.text(st.one_of(any_char, st.sampled_from(_MD_ALPHABET)), max_size=80),
    st.sampled_from(["```\nunclosed", "~~~~\n", "> " * 500 + "x", "- " * 400 + "x", "#" * 7]),
    st.integers(1, 3000).map(lambda n: "> " * n + "deep"),
    st.integers(1, 3000).map(lambda n: "# h\n" * n),
    fuzz_texts,
)

#: Budgets: small, 0, negative, bool, float, huge, None (no budget).
_budgets = st.one_of(
    st.none(),
    st.integers(1, 8),
    st.integers(1, 8),
    st.integers(1, 8),
    st.integers(-2, 0),
    st.sampled_from([MAX_SAFE, MAX_SAFE + 1, True, 2.0]),
)

#: Counters: the default, built-ins, and look-alikes with a ``count`` that is not one.
_counters = st.one_of(
    st.none(),
    st.none(),
    st.sampled_from([WhitespaceCounter(), CharEstimateCounter()]),
    anything,
)


def counter_problem(counter: object) -> str | None:
    """HEAD-12, MD-10: None or an object with a ``count(text)`` method that is not a sequence.

    A str, list or tuple has ``count`` too, but it counts items: TypeError (not a counter).
    """
    if counter is None:
        return None
    if isinstance(counter, (str, bytes, bytearray, Sequence)):
        return TYPE
    return None if callable(getattr(counter, "count", None)) else TYPE


def bool_problem(value: object) -> str | None:
    """A flag: exactly ``True`` or ``False``."""
    return None if isinstance(value, bool) else TYPE


def budget_problem(value: object) -> str | None:
    """``max_tokens`` of split_markdown: None, or an int in [1, 2**53 - 1]."""
    return None if value is None else int_problem(value, 1)


@given(
    doc_id=either(st.text(max_size=4)),
    source=either(md_sources),
    max_tokens=either(_budgets),
    counter=_counters,
    count_headings=either(st.booleans()),
    split_tables=either(st.booleans()),
)
def test_fuzz_split_markdown(
    doc_id: Any, source: Any, max_tokens: Any, counter: Any, count_headings: Any, split_tables: Any
) -> None:
    """MD-8, MD-10, MD-11, PORT-1, PORT-2: ``text == prefix + source[start:end]``, or an error."""
    ok, result = outcome(
        "split_markdown",
        lambda: split_markdown(
            doc_id,
            source,
            max_tokens,
            counter=counter,
            count_headings=count_headings,
            split_tables=split_tables,
        ),
        {
            "doc_id": str_problem(doc_id),
            "source": text_problem(source),
            "max_tokens": budget_problem(max_tokens),
            "counter": counter_problem(counter),
            "count_headings": bool_problem(count_headings),
            "split_tables": bool_problem(split_tables),
        },
        {
            "doc_id": doc_id,
            "source": source,
            "max_tokens": max_tokens,
            "counter": counter,
            "count_headings": count_headings,
            "split_tables": split_tables,
        },
    )
    if not ok:
        return
    for c in result:
        assert c.text == c.prefix + source[c.start : c.end]  # the equation, MD-8
        assert c.doc_id == doc_id
        assert c.text.strip()
    if len(source) <= _CHECK_LIMIT and (counter is None or isinstance(counter, WhitespaceCounter)):
        check_split_markdown(
            source, result, max_tokens, count_headings=count_headings, split_tables=split_tables
        )


def _check_blocks(document: Document, source: str) -> None:
    """MD-3, MD-4: blocks are regions of ``source`` in order, of known kinds and levels."""
    assert document.source == source
    end = 0
    for block in document.blocks:
        assert block.text == source[block.start : block.end]  # the equation, MD-4
        assert block.start >= end
        end = block.end
        assert block.kind in BLOCK_KINDS
        assert (1 <= block.level <= 6) if block.kind == "heading" else block.level == 0


@given(document_id=either(st.text(max_size=4)), source=either(md_sources))
def test_fuzz_parse_markdown(document_id: Any, source: Any) -> None:
    """MD-1, MD-3, MD-4, PORT-2: blocks with ``text == source[start:end]``, or an error."""
    ok, result = outcome(
        "parse_markdown",
        lambda: parse_markdown(document_id, source),
        {"document_id": str_problem(document_id), "source": text_problem(source)},
        {"document_id": document_id, "source": source},
    )
    if ok:
        assert result.document_id == document_id
        _check_blocks(result, source)


@given(document_id=either(st.text(max_size=4)), text=either(md_sources))
def test_fuzz_parse_text(document_id: Any, text: Any) -> None:
    """MD-12, MD-2: each run of non-blank lines is one paragraph, or a named error."""
    ok, result = outcome(
        "parse_text",
        lambda: parse_text(document_id, text),
        {"document_id": str_problem(document_id), "text": text_problem(text)},
        {"document_id": document_id, "text": text},
    )
    if not ok:
        return
    _check_blocks(result, text)
    runs: list[tuple[int, int]] = []
    open_run: list[int] = []
    for start, end in model_lines(text):
        if text[start:end].strip():
            open_run = open_run or [start]
            last_end = end
        elif open_run:
            runs.append((open_run[0], last_end))
            open_run = []
    if open_run:
        runs.append((open_run[0], last_end))
    assert [(b.start, b.end) for b in result.blocks] == runs
    assert {b.kind for b in result.blocks} <= {"paragraph"}


@st.composite
def block_records(draw: st.DrawFn) -> object:
    """One JSON block record: mostly well-formed, each field sometimes missing or any JSON."""
    if draw(st.integers(0, 14)) == 0:
        return draw(json_values)
    record: dict[str, object] = {"text": draw(either(md_sources, odds=12))}
    kind_key = draw(st.sampled_from(["kind", "type", None]))
    if kind_key is not None:
        record[kind_key] = draw(
            either(st.sampled_from([*sorted(BLOCK_KINDS), "heading", "heading", "Heading"]))
        )
    if draw(st.booleans()):
        record["level"] = draw(either(st.integers(0, 8)))
    if draw(st.integers(0, 3)) == 0:
        record[draw(st.sampled_from(["page", "bbox", "confidence"]))] = draw(json_values)
    if draw(st.integers(0, 9)) == 0:
        del record["text"]
    return record


def _record_problems(blocks: Any) -> tuple[dict[str, str | None], dict[str, object]]:
    """MD-13: the problems of each record and the value behind each argument name."""
    values: dict[str, object] = {"blocks": blocks}
    if isinstance(blocks, (str, bytes)) or not isinstance(blocks, Sequence):
        return {"blocks": TYPE}, values
    problems: dict[str, str | None] = {}
    for n, record in enumerate(blocks):
        name = f"blocks[{n}]"
        values[name] = record
        if not isinstance(record, Mapping):
            problems[name] = TYPE
            continue
        text = record.get("text")
        kind = record.get("kind", record.get("type", "paragraph"))
        values.update({f"{name}.text": text, f"{name}.kind": kind})
        problems[f"{name}.text"] = text_problem(text)
        kind_problem = str_problem(kind)
        problems[f"{name}.kind"] = kind_problem or (None if kind in BLOCK_KINDS else VALUE)
        if kind == "heading":
            level = record.get("level", 1)
            values[f"{name}.level"] = level
            level_problem = int_problem(level, 1)
            problems[f"{name}.level"] = level_problem or (VALUE if level > 6 else None)
    return problems, values


@given(
    document_id=either(st.text(max_size=4)),
    blocks=either(
        st.one_of(st.lists(block_records(), max_size=4), st.tuples(block_records())), odds=6
    ),
)
def test_fuzz_document_from_blocks(document_id: Any, blocks: Any) -> None:
    """MD-13, MD-4: ``source == "\\n\\n".join(texts)`` and each block a region, or an error."""
    problems, values = _record_problems(blocks)
    problems["document_id"] = str_problem(document_id)
    values["document_id"] = document_id
    ok, result = outcome(
        "document_from_blocks", lambda: document_from_blocks(document_id, blocks), problems, values
    )
    if not ok:
        return
    assert result.source == "\n\n".join(record["text"] for record in blocks)
    _check_blocks(result, result.source)
    for block, record in zip(result.blocks, blocks, strict=True):
        assert block.text is record["text"]
        assert block.kind == record.get("kind", record.get("type", "paragraph"))
        assert block.level == (record.get("level", 1) if block.kind == "heading" else 0)
        extra = {k: v for k, v in record.items() if k not in ("kind", "type", "text", "level")}
        assert dict(block.attributes) == extra


@st.composite
def documents(draw: st.DrawFn) -> object:
    """A Document from parse_markdown, parse_text or document_from_blocks, or anything."""
    kind = draw(st.sampled_from(["markdown", "markdown", "text", "blocks", "any"]))
    if kind == "any":
        return draw(anything)
    source = draw(md_sources.filter(lambda s: text_problem(s) is None))
    if kind == "markdown":
        return parse_markdown("doc", source)
    if kind == "text":
        return parse_text("doc", source)
    heading = {"kind": "heading", "level": draw(st.integers(1, 6)), "text": "Title"}
    return document_from_blocks("doc", [heading, {"text": source}])


_contexts = st.one_of(
    st.none(),
    st.builds(ChunkContext, st.text(max_size=3), st.text(max_size=3), st.just(("a",))),
    anything,
)


@given(
    document=documents(),
    max_tokens=either(st.one_of(st.integers(1, 8), st.sampled_from([MAX_SAFE]))),
    overlap=either(st.integers(0, 10)),
    counter=_counters,
    context=_contexts,
)
def test_fuzz_heading_aware(
    document: Any, max_tokens: Any, overlap: Any, counter: Any, context: Any
) -> None:
    """HEAD-2, HEAD-9, HEAD-12, CONTRACT-1: ``text == source[start:end]``, or a named error."""
    problems = {
        "max_tokens": int_problem(max_tokens, 1),
        "overlap_tokens": int_problem(overlap, 0),
        "counter": counter_problem(counter),
        "document": None if isinstance(document, Document) else TYPE,
        "context": None if context is None or isinstance(context, ChunkContext) else TYPE,
    }
    values = {
        "max_tokens": max_tokens,
        "overlap_tokens": overlap,
        "counter": counter,
        "document": document,
        "context": context,
    }
    ok, result = outcome(
        "heading_aware",
        lambda: HeadingAwareChunker(max_tokens, overlap, counter=counter).chunk(document, context),
        problems,
        values,
    )
    if not ok:
        return
    the_context = context or ChunkContext()
    for n, c in enumerate(result):
        assert c.text == document.source[c.start : c.end]  # the equation, HEAD-2
        assert c.position == n
        assert (c.tenant_id, c.corpus_id, c.acl_labels) == (
            the_context.tenant_id,
            the_context.corpus_id,
            the_context.acl_labels,
        )
    small = len(document.source) <= _CHECK_LIMIT
    if small and (counter is None or isinstance(counter, WhitespaceCounter)):
        check_heading_aware(document, result, max_tokens, overlap)


_sentence_texts = st.one_of(
    fuzz_texts,
    st.text(st.sampled_from("ab .!?\u2026\u3002\"')]\n\t\u00a0"), max_size=80),
    st.integers(0, 20_000).map(lambda n: "." * n),
)


@given(text=either(_sentence_texts))
def test_fuzz_split_sentences(text: Any) -> None:
    """SENT-1, SENT-2, PORT-2: the model's sentences, each stripped and non-empty, or an error."""
    ok, result = outcome(
        "split_sentences",
        lambda: split_sentences(text),
        {"text": text_problem(text)},
        {"text": text},
    )
    if not ok:
        return
    assert all(s == s.strip() != "" for s in result)
    if len(text) <= 5_000:
        assert result == model_sentences(text)

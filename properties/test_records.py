"""Properties of chunk records and documents (docs/spec/records.md, RECORD-1..15, SOURCE-1..7)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from tests.markdown_invariants import _norm

from chunkspec import (
    ChunkRecord,
    HeadingAwareChunker,
    InputError,
    SourceDocument,
    chunk,
    chunk_document,
    chunk_pages,
    document_from_bytes,
    document_from_text,
    hash_text,
    split_markdown,
    split_section,
    token_windows,
)
from chunkspec._code._languages import SUFFIX_LANGUAGE, shebang_language
from chunkspec._core._units import CLUSTER_SCRIPT_RANGES
from chunkspec._text._documents import format_for
from chunkspec.counters import counter_name, resolve_counter
from chunkspec.markdown import ChunkContext, MarkdownChunk
from chunkspec.pages import join_pages
from chunkspec.records import (
    RECORD_FIELDS,
    RECORD_KINDS,
    STRATEGY_NAMES,
    record_json_schema,
    render_title,
)
from chunkspec.windows import TokenWindow
from properties.models import (
    model_line_of,
    model_record_pages,
    model_record_path,
    model_render_title,
)
from properties.strategies import json_block_lists, record_counters, record_texts

_VALIDATOR = Draft202012Validator(record_json_schema())

#: A document and, for JSON blocks, the block records it was read from (for the models).
Generated = tuple[SourceDocument, "list[dict[str, object]] | None"]


@st.composite
def generated_documents(draw: st.DrawFn) -> Generated:
    """A Markdown, plain-text, paged or JSON-blocks document, read from its bytes."""
    doc_id = draw(st.sampled_from(["d", "guide/install", "\u00e9"]))
    if draw(st.integers(0, 4)) == 0:
        blocks = draw(json_block_lists())
        data = json.dumps(blocks).encode()
        return document_from_bytes(data, doc_id=doc_id, input_format="json"), blocks
    text, input_format = draw(record_texts)
    source = draw(st.sampled_from(["", "docs/a.md"]))
    return document_from_text(text, doc_id=doc_id, input_format=input_format, source=source), None


@st.composite
def calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A strategy and valid keyword arguments for it (RECORD-10, RECORD-13)."""
    strategy = draw(st.sampled_from(STRATEGY_NAMES))
    max_tokens = draw(st.integers(1, 12))
    options: dict[str, Any] = {"max_tokens": max_tokens}
    if strategy == "recursive":
        options["counter"] = "whitespace"
    else:
        options["counter"] = draw(record_counters)
    if strategy == "heading" and draw(st.booleans()):
        options["overlap_tokens"] = draw(st.integers(0, 14))
    if strategy in ("window", "pages") and draw(st.booleans()):
        options["overlap_tokens"] = draw(st.integers(0, max_tokens - 1))
    if strategy == "structural":
        options["count_headings"] = draw(st.booleans())
        options["split_tables"] = draw(st.booleans())
    if strategy in ("heading", "structural") and draw(st.booleans()):
        options["min_tokens"] = draw(st.integers(0, max_tokens))  # SIZE-2
    return strategy, options


def _overlap(strategy: str, options: dict[str, Any]) -> int:
    """RECORD-13's default, written out."""
    if "overlap_tokens" in options:
        return int(options["overlap_tokens"])
    if strategy == "pages":
        return int(options["max_tokens"]) // 4
    return min(64, int(options["max_tokens"]) // 8)


def _minimum(strategy: str, options: dict[str, Any]) -> int:
    """SIZE-2's default min_tokens, written out."""
    if "min_tokens" in options:
        return int(options["min_tokens"])
    return min(64, options["max_tokens"] // 8) if strategy in ("heading", "structural") else 0


def _strategy_string(strategy: str, options: dict[str, Any]) -> str:
    """RECORD-6, written out."""
    out = f"{strategy}:max_tokens={options['max_tokens']}"
    if strategy in ("heading", "window", "pages"):
        out += f",overlap_tokens={_overlap(strategy, options)}"
    if _minimum(strategy, options):
        out += f",min_tokens={_minimum(strategy, options)}"  # RECORD-16
    if options.get("count_headings"):
        out += ",count_headings=true"
    if options.get("split_tables"):
        out += ",split_tables=true"
    return out


@given(generated_documents(), calls())
def test_every_record_satisfies_the_rules(doc: Generated, call: tuple[str, dict[str, Any]]) -> None:
    """RECORD-2, RECORD-3, RECORD-4, RECORD-6, RECORD-12, RECORD-13, RECORD-14, SOURCE-4,
    SOURCE-7, RECORD-9, RECORD-16, SIZE-7: on every strategy and document kind, ids,
    indexes, hashes, offsets, the equation (verbatim but for recursive), kinds,
    tokens == counter.count(text), oversized, pages against a literal page model, heading
    paths and sections of the offset-based strategies against a literal MD-7 stack, title,
    source, strategy string."""
    document, blocks = doc
    strategy, options = call
    records = chunk_document(document, strategy, **options)
    source = document.text
    counter = resolve_counter(_script_counter(options["counter"], strategy, document.text))
    if not source.strip():
        assert records == []  # SOURCE-7
    pages: list[str] | None = None
    if document.pages is not None:
        pages = list(document.pages)
        assert join_pages(pages) == source
    elif strategy == "pages":
        pages = [source]
    for index, r in enumerate(records):
        assert (r.index, r.id, r.doc_id) == (index, f"{document.doc_id}:{index}", document.doc_id)
        assert r.content_hash == hash_text(r.text)
        assert 0 <= r.start <= r.end <= len(source)
        region = source[r.start : r.end]
        if strategy == "recursive":
            assert r.text.split() == region.split()
        else:
            assert r.text == r.prefix + region
        # A window under a character counter (chars{N}: blanks are tokens too, and chars1 is
        # seed 002's character window) may hold only blanks; no other record does.
        assert r.text.strip() or (strategy == "window" and options["counter"] != "whitespace")
        assert r.kind in RECORD_KINDS
        assert (
            r.kind
            in {
                "heading": {"heading", "body"},
                # MD-19: a document of headings only gives heading records
                "structural": {"prose", "table", "code", "definition", "heading"},
                "recursive": {"prose"},
                "window": {"window"},
                "pages": {"window"},
                "code": {"code"},
            }[strategy]
        )
        assert r.prefix == "" or (strategy == "structural" and r.kind == "table")
        assert r.counter == _script_counter(options["counter"], strategy, document.text)
        assert r.tokens == counter.count(r.text)
        assert r.oversized == (r.tokens > options["max_tokens"])
        if pages is None:
            assert (r.page_start, r.page_end) == (None, None)
        else:
            assert (r.page_start, r.page_end) == model_record_pages(pages, r.start, r.end)
        if strategy in ("recursive", "window", "pages"):
            path = model_record_path(source, document.format, blocks, r.start)
            assert [_norm(t) for t in r.heading_path] == [_norm(t) for t in path]
        if r.kind == "heading" and _minimum(strategy, options):
            assert r.section is not None
            if not r.text.startswith(r.section):  # SIZE-7: the heading opens its section,
                # but for SIZE-5's preamble: the text before the first titled heading, merged
                # forward into the record that heading opens, which it names
                titled = [b for b in document.blocks().blocks if b.kind == "heading"]
                first = next(b for b in titled if b.text.strip())
                assert r.start < first.start, r
                assert r.section == first.text, r
                assert r.end >= first.end, r
        elif r.kind == "heading":
            assert r.section == r.text
        else:
            last = r.heading_path[-1] if r.heading_path else ""
            assert r.section == (last if last.strip() else None)
        assert r.parent_id is None or strategy == "heading"
        assert (r.title, r.source) == (document.title, document.source)
        assert r.strategy == _strategy_string(strategy, options)
        assert render_title(r) == model_render_title(r.title, list(r.heading_path))


@given(generated_documents(), st.integers(1, 12))
def test_recursive_is_split_section(doc: Generated, max_tokens: int) -> None:
    """RECORD-11, RECORD-3: recursive texts are split_section's texts (less the one empty
    chunk of a blank text); each span runs from its first word's first character to its
    last word's last character, and the spans take the document's words in order."""
    document = doc[0]
    records = chunk_document(document, "recursive", max_tokens=max_tokens)
    direct = split_section(document.doc_id, document.title, document.text, max_tokens)
    assert [r.text for r in records] == [c.text for c in direct if c.text.split()]
    words_before = 0
    source = document.text
    for r in records:
        assert not source[r.start].isspace()
        assert not source[r.end - 1].isspace()
        assert len(source[: r.start].split()) == words_before
        words_before += len(r.text.split())
        assert source[r.start : r.end].split() == r.text.split()
    assert words_before == len(source.split())


# 300 examples: each builds an Arrow table and validates every record against the JSON
# Schema (~4x the cost of the other properties); the records' shapes repeat quickly.
@settings(max_examples=300)
@given(generated_documents(), calls())
def test_round_trips_json_arrow_schema(doc: Generated, call: tuple[str, dict[str, Any]]) -> None:
    """RECORD-1, RECORD-7, RECORD-8: every record's JSON object has RECORD_FIELDS in order,
    validates against the JSON Schema, and reads back equal through json and Arrow."""
    pytest.importorskip("pyarrow")
    from chunkspec.arrow import record_schema, records_to_table, table_to_records

    records = chunk_document(doc[0], call[0], **call[1])
    for r in records:
        data = r.to_dict()
        assert tuple(data) == RECORD_FIELDS
        assert _VALIDATOR.is_valid(data)
        assert ChunkRecord.from_dict(json.loads(json.dumps(data))) == r
    assert tuple(record_schema().names) == RECORD_FIELDS
    assert table_to_records(records_to_table(records)) == records


def _line(source: str, offset: int) -> int:
    """The 1-based MD-2 line holding ``source[offset]``."""
    return model_line_of(source, offset) + 1


def _script_counter(name: str, strategy: str, text: str) -> str:
    """SCRIPT-6: ``whitespace`` counts ``unicode`` units on a document holding a character of
    a script written without spaces, in every strategy but seed 000's ``recursive``."""
    cluster = any(a <= ord(ch) <= b for ch in text for a, b in CLUSTER_SCRIPT_RANGES)
    return "unicode" if name == "whitespace" and strategy != "recursive" and cluster else name


@given(generated_documents(), calls())
def test_nothing_lost(doc: Generated, call: tuple[str, dict[str, Any]]) -> None:
    """RECORD-15, RECORD-10: each seed's chunk type, rebuilt from the records and the document,
    equals what its chunker returns directly: MarkdownChunk (line_start/line_end from MD-2
    lines), DocumentChunk (level from the heading block at start, context from the caller),
    TokenWindow (token_start/token_end from the counter's token starts; chars1 windows are
    seed 002's chunk), PageChunk (no sections: section None, confidence 0.0); with SIZE-2's
    merging off, as the seed types are the seed chunkers' own chunks."""
    document, _ = doc
    strategy, options = call
    if strategy in ("heading", "structural"):
        options = {**options, "min_tokens": 0}
    records = chunk_document(document, strategy, **options)
    source = document.text
    counter = resolve_counter(_script_counter(options["counter"], strategy, source))
    size = options["max_tokens"]
    overlap = _overlap(strategy, options)
    if strategy == "structural":
        flags = {k: options[k] for k in ("count_headings", "split_tables")}
        if document.format == "markdown":
            direct = split_markdown(document.doc_id, source, size, counter=counter, **flags)
            rebuilt = [
                MarkdownChunk(
                    r.doc_id,
                    r.text,
                    r.heading_path,
                    r.kind,
                    r.start,
                    r.end,
                    _line(source, r.start),
                    _line(source, r.end - 1),
                    r.prefix,
                )
                for r in records
            ]
            assert rebuilt == direct
    elif strategy == "heading":
        context = ChunkContext("tenant", "corpus", ("acl",))
        chunker = HeadingAwareChunker(size, overlap, counter=counter)
        direct_chunks = chunker.chunk(document.blocks(), context)
        levels = {b.start: b.level for b in document.blocks().blocks if b.kind == "heading"}
        rebuilt_chunks = [
            (
                r.id,
                r.doc_id,
                r.index,
                r.parent_id,
                r.text,
                r.start,
                r.end,
                r.heading_path,
                {"kind": "heading", "level": levels[r.start]}
                if r.kind == "heading"
                else {"kind": "body"},
                *dataclasses.astuple(context),
            )
            for r in records
        ]
        assert rebuilt_chunks == [
            (
                c.id,
                c.document_id,
                c.position,
                c.parent_id,
                c.text,
                c.start,
                c.end,
                c.heading_path,
                dict(c.metadata),
                c.tenant_id,
                c.corpus_id,
                c.acl_labels,
            )
            for c in direct_chunks
        ]
    elif strategy == "window" and options["counter"] == "chars1":
        assert [r.text for r in records] == (chunk(source, size, overlap) if source.strip() else [])
    elif strategy == "window" and options["counter"] in ("whitespace", "unicode"):
        # SCRIPT-11: token_windows is the window strategy for these counters; for the others
        # (chars{N > 1}) it is SCRIPT-10's cluster-whole windows (properties/test_scripts.py).
        starts = [s for s, _ in counter.token_spans(source)]

        def first_at(offset: int) -> int:
            return next((k for k, s in enumerate(starts) if s >= offset), len(starts))

        windows = [
            TokenWindow(r.text, r.index, r.start, r.end, first_at(r.start), first_at(r.end))
            for r in records
        ]
        direct_windows = token_windows(source, size, overlap, counter)
        assert windows == (direct_windows if source.strip() else [])
    elif strategy == "pages":
        pages = list(document.pages) if document.pages is not None else [source]
        direct_pages = chunk_pages(pages, size, overlap, counter)
        assert [
            (r.text, r.index, r.start, r.end, r.page_start, r.page_end, r.tokens, r.oversized)
            for r in records
        ] == [
            (
                c.text,
                c.index,
                c.char_start,
                c.char_end,
                c.page_start,
                c.page_end,
                c.token_count,
                c.oversized,
            )
            for c in direct_pages
        ]
        assert all((c.section, c.section_confidence) == (None, 0.0) for c in direct_pages)


@given(generated_documents(), st.sampled_from(STRATEGY_NAMES), st.integers(1, 600))
def test_overlap_defaults(doc: Generated, strategy: str, max_tokens: int) -> None:
    """RECORD-13, RECORD-6: no overlap_tokens means min(64, max_tokens // 8) for heading and
    window, max_tokens // 4 for pages; structural and recursive refuse any overlap, window
    and pages refuse one not below max_tokens, heading takes any."""
    document = doc[0]
    records = chunk_document(document, strategy, max_tokens=max_tokens)
    if strategy in ("heading", "window", "pages"):
        default = max_tokens // 4 if strategy == "pages" else min(64, max_tokens // 8)
        assert records == chunk_document(
            document, strategy, max_tokens=max_tokens, overlap_tokens=default
        )
        if strategy != "heading":
            with pytest.raises(ValueError, match=r"^overlap_tokens") as info:
                chunk_document(document, strategy, max_tokens=max_tokens, overlap_tokens=max_tokens)
            assert getattr(info.value, "argument", None) == "overlap_tokens"
    else:
        with pytest.raises(ValueError, match=r"^overlap_tokens") as info:
            chunk_document(document, strategy, max_tokens=max_tokens, overlap_tokens=0)
        assert getattr(info.value, "argument", None) == "overlap_tokens"
    for flag in ("count_headings", "split_tables"):
        if strategy != "structural":
            flags: dict[str, Any] = {flag: True}
            with pytest.raises(ValueError, match=f"^{flag}") as info:
                chunk_document(document, strategy, **flags)
            assert getattr(info.value, "argument", None) == flag


@given(
    st.one_of(
        st.integers(1, 10**6).map(lambda n: f"chars{n}"),
        st.just("whitespace"),
        st.text(alphabet="achrsw0123:+- \u0663", max_size=10),
    )
)
def test_counter_names(name: str) -> None:
    """RECORD-5: whitespace and chars{N} (N >= 1, ASCII digits, no leading sign) name a
    counter whose name is given back; any other name without tiktoken/huggingface is a
    ValueError naming counter."""
    kind = name.partition(":")[0]
    if kind in ("tiktoken", "huggingface"):
        return  # built from files or downloads; the goldens cover their names
    digits = name[5:]
    valid = name == "whitespace" or (
        name.startswith("chars") and digits.isascii() and digits.isdigit() and int(digits) >= 1
    )
    if valid:
        counter = resolve_counter(name)
        assert counter_name(counter) == (name if kind == "whitespace" else f"chars{int(digits)}")
        assert resolve_counter(name) is counter  # built once per process and name
    else:
        with pytest.raises(ValueError, match=r"^counter") as info:
            resolve_counter(name)
        assert getattr(info.value, "argument", None) == "counter"


_names = st.tuples(
    st.sampled_from(["a", "dir/b.c", "README", ".md"]),
    st.sampled_from(["", ".md", ".MD", ".markdown", ".txt", ".Txt", ".pdf", ".json", ".rst"]),
)


#: Heads: any bytes, or bytes after an opening that SOURCE-10, HTML-1 or CODE-1 read.
_heads = st.one_of(
    st.binary(max_size=40),
    st.builds(
        bytes.__add__,
        st.sampled_from(
            [
                *[b"%PDF-1.7\n", b" %PDF-", b"<!DOCTYPE html>", b"\xef\xbb\xbf <!-- x --><HTML>"],
                *[b"<html", b"<htmlx>", b"#!/usr/bin/env python3\n", b"#!/bin/sh\n"],
            ]
        ),
        st.binary(max_size=20),
    ),
)


def _model_html_start(head: bytes) -> bool:
    """HTML-1 by hand: after one UTF-8 BOM, white space and comments, ``<!doctype html`` or
    ``<html`` then white space or ``>``, in any case."""
    blanks = b" \t\n\r\x0b\x0c"
    rest = head[:1024].removeprefix(b"\xef\xbb\xbf")
    while True:
        stripped = rest.lstrip(blanks)
        if stripped.startswith(b"<!--") and b"-->" in stripped:
            rest = stripped[stripped.index(b"-->") + 3 :]
        else:
            break
    low = stripped.lower()
    if low.startswith(b"<!doctype") and low[9:10] and low[9:10] in blanks:
        return low[9:].lstrip(blanks).startswith(b"html")
    return low.startswith(b"<html") and bool(low[5:6]) and low[5:6] in blanks + b">"


@given(_names, _heads, st.sampled_from([None, *["markdown", "text", "pdf", "json"]]))
def test_input_format(name: tuple[str, str], head: bytes, explicit: str | None) -> None:
    """SOURCE-1, SOURCE-10, HTML-1, CODE-1: an explicit format wins; else %PDF- at byte 0;
    else the suffix in any case (a source file's is code); else %PDF- in the first KiB; else
    a doctype or <html> opening; else a shebang naming a known interpreter (code); else an
    InputError naming the file and --input-format."""
    path = name[0] + name[1]
    suffixes = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".pdf": "pdf"}
    suffixes[".json"] = "json"
    suffixes.update(dict.fromkeys(SUFFIX_LANGUAGE, "code"))
    suffix = "." + path.rsplit(".", 1)[1].lower() if "." in path.rsplit("/", 1)[-1][1:] else ""
    if explicit is not None:
        assert format_for(path, head, explicit) == explicit
    elif head.startswith(b"%PDF-"):
        assert format_for(path, head, None) == "pdf"
    elif suffix in suffixes:
        assert format_for(path, head, None) == suffixes[suffix]
    elif b"%PDF-" in head:
        assert format_for(path, head, None) == "pdf"
    elif _model_html_start(head):
        assert format_for(path, head, None) == "html"
    elif shebang_language(head) is not None:
        assert format_for(path, head, None) == "code"
    else:
        with pytest.raises(InputError) as info:
            format_for(path, head, None)
        assert str(info.value).startswith(f"{path}: ")
        assert "--input-format" in str(info.value)


@given(record_texts, st.sampled_from(["d", "x/y"]), st.sampled_from(["", "in/a.md"]))
def test_documents_from_bytes(text_format: tuple[str, str], doc_id: str, source: str) -> None:
    """SOURCE-2, SOURCE-3, SOURCE-4, SOURCE-5: the text is the decoded bytes less one BOM;
    doc_id and source are the caller's; pages are the form-feed pieces, else None; a text
    file's title is its doc_id, a Markdown file's its first non-blank H1, folded."""
    text, input_format = text_format
    data = ("\ufeff" + text).encode()
    document = document_from_bytes(data, doc_id=doc_id, source=source, input_format=input_format)
    assert (document.text, document.doc_id, document.source) == (text, doc_id, source)
    assert document.pages == (tuple(text.split("\f")) if "\f" in text else None)
    if input_format == "text":
        assert document.title == doc_id
    else:
        titles = [
            " ".join(b.text.split())
            for b in document.blocks().blocks
            if b.kind == "heading" and b.level == 1 and b.text.strip()
        ]
        assert document.title == (titles[0] if titles else doc_id)


@given(st.binary(max_size=60), st.sampled_from(["a.md", "a.txt", "a.json"]))
def test_bad_documents(data: bytes, name: str) -> None:
    """SOURCE-6: any bytes give a document or an InputError, one line, starting with the
    document's name; never another exception."""
    message = ""
    try:
        document_from_bytes(data, doc_id="a", name=name)
    except InputError as error:
        message = str(error)
    if message:
        assert "\n" not in message
        assert message.startswith(f"{name}: ")


@given(st.sampled_from(["", " ", "\n\n", "\t\r\n", "\f", " \f \u3000"]), calls())
def test_blank_documents_give_no_record(text: str, call: tuple[str, dict[str, Any]]) -> None:
    """SOURCE-7: an empty or whitespace-only document gives no record under every strategy."""
    for input_format in ("markdown", "text"):
        document = document_from_text(text, doc_id="d", input_format=input_format)
        assert chunk_document(document, call[0], **call[1]) == []


@given(generated_documents(), calls())
def test_trusted_records_equal_checked_records(
    doc: Generated, call: tuple[str, dict[str, Any]]
) -> None:
    """RECORD-20: every record chunk_document builds without checks equals the record the
    checking constructor builds from the same fields, and the checking constructor accepts
    it (so the unchecked path makes no record a reader would refuse)."""
    document, _ = doc
    strategy, options = call
    for record in chunk_document(document, strategy, **options):
        fields = {name: getattr(record, name) for name in RECORD_FIELDS}
        checked = ChunkRecord(**fields)
        assert checked == record
        assert type(record.heading_path) is tuple
        assert ChunkRecord.from_dict(record.to_dict()) == record

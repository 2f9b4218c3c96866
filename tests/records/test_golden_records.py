"""Golden cases for chunk records and documents (docs/spec/records.md, RECORD and SOURCE rules).

``records.json``: ``chunk_document`` over a document read by ``document_from_bytes`` (every
record field), and ``ChunkRecord.from_dict`` on JSON objects; ``sources.json``:
``document_from_bytes`` (format, text, title, pages) and its InputErrors.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from chunkspec import (
    ChunkRecord,
    InputError,
    SourceDocument,
    chunk_document,
    document_from_bytes,
    read_document,
)
from chunkspec._records._record import render_title
from chunkspec.counters import resolve_counter
from chunkspec.records import record_json_schema
from tests import goldens

_ERRORS: dict[str, type[Exception]] = {
    "TypeError": TypeError,
    "ValueError": ValueError,
    "InputError": InputError,
}


def _bytes(data: dict[str, Any]) -> bytes:
    """Return the case's document bytes: ``hex`` if given, else ``text`` as UTF-8."""
    if "hex" in data:
        return bytes.fromhex(data["hex"])
    text: str = data["text"]
    return text.encode("utf-8")


def _document(data: dict[str, Any]) -> SourceDocument:
    """Read the case's document as ``document_from_bytes`` does."""
    return document_from_bytes(
        _bytes(data),
        doc_id=data["doc_id"],
        source=data.get("source", ""),
        input_format=data["input_format"],
        title=data.get("title"),
        metadata=data.get("metadata"),  # META-3: the caller's metadata
    )


def _expect_error(case: dict[str, Any], call: Any) -> None:
    """Assert ``call()`` raises the case's error: type, argument, message substring."""
    want = case["error"]
    with pytest.raises(_ERRORS[want["type"]]) as info:
        call()
    if want["type"] == "InputError":
        # SOURCE-6: one line, starting with the document's name.
        assert "\n" not in str(info.value)
        assert str(info.value).startswith(f"{want['name']}: ")
    else:
        assert getattr(info.value, "argument", None) == want["argument"]
    assert want["message"] in str(info.value)


_VALIDATOR = Draft202012Validator(record_json_schema())


@pytest.mark.parametrize("case", goldens.cases("records"))
def test_records(case: dict[str, Any]) -> None:
    """chunk_document's records, every field in order; from_dict's reading and refusals."""
    data = case["input"]
    if "record" in data:
        obj = data["record"]
        options = {"check_hash": data["check_hash"]} if "check_hash" in data else {}
        # RECORD-7: the schema accepts what it can state and nothing more.
        assert _VALIDATOR.is_valid(obj) == case["schema_valid"]
        if "error" in case:
            _expect_error(case, lambda: ChunkRecord.from_dict(obj, **options))
            return
        record = ChunkRecord.from_dict(json.loads(json.dumps(obj)), **options)
        assert record.to_dict() == case["output"]
        # RECORD-1's order; META-5, KEY-4: a record read without metadata or key has them
        assert list(record.to_dict()) == [
            *obj,
            *(name for name in ("metadata", "key") if name not in obj),
        ]
        return
    if "error" in case:
        _expect_error(
            case, lambda: chunk_document(_document(data), data["strategy"], **data["options"])
        )
        return
    document = _document(data)
    records = chunk_document(document, data["strategy"], **data["options"])
    got = [r.to_dict() for r in records]
    assert got == case["output"]
    for obj in got:
        assert list(obj) == list(case["output"][0])  # RECORD-1: field order
        assert _VALIDATOR.is_valid(obj)
    assert [render_title(r) for r in records] == case.get("render_titles", [])
    if "derived" in case:
        assert _derived(document, records, case["derived"]) == case["derived"]
    if records:  # RECORD-8: Arrow round trip
        arrow = pytest.importorskip("chunkspec.arrow")
        assert arrow.table_to_records(arrow.records_to_table(records)) == records
    for r in records:
        chunk = r.to_chunk(0.5)
        assert (chunk.id, chunk.title, chunk.tokens, chunk.score) == (
            r.id,
            render_title(r),
            r.tokens,
            0.5,
        )


def _derived(
    document: SourceDocument, records: list[ChunkRecord], want: dict[str, Any]
) -> dict[str, Any]:
    """RECORD-15: the seed chunk facts the case names, computed from records and document.

    ``lines``: split_markdown's (line_start, line_end), the MD-2 lines of ``start`` and
    ``end - 1``; ``levels``: a heading chunk's level, that of the heading block at
    ``start`` (null for body chunks); ``token_ranges``: a window's (token_start, token_end),
    the first token starting at or after ``start`` and at or after ``end``.
    """
    source = document.text
    got: dict[str, Any] = {}
    if "lines" in want:
        breaks = [i for i, ch in enumerate(source) if ch == "\n"]  # the cases use \n only

        def line(offset: int) -> int:
            return 1 + sum(1 for b in breaks if b < offset)

        got["lines"] = [[line(r.start), line(r.end - 1)] for r in records]
    if "levels" in want:
        levels = {b.start: b.level for b in document.blocks().blocks if b.kind == "heading"}
        got["levels"] = [levels[r.start] if r.kind == "heading" else None for r in records]
    if "token_ranges" in want:
        starts = [s for s, _ in resolve_counter(records[0].counter).token_spans(source)]

        def first(offset: int) -> int:
            return next((k for k, s in enumerate(starts) if s >= offset), len(starts))

        got["token_ranges"] = [[first(r.start), first(r.end)] for r in records]
    return got


@pytest.mark.parametrize("case", goldens.cases("sources"))
def test_sources(case: dict[str, Any]) -> None:
    """document_from_bytes: doc id, text, format, title, source and pages, or InputError."""
    data = dict(case["input"])
    options = {
        k: data[k]
        for k in ("source", "input_format", "title", "name", "encoding", "pdf_password")
        if k in data
    }
    if "error" in case:
        _expect_error(
            case, lambda: document_from_bytes(_bytes(data), doc_id=data["doc_id"], **options)
        )
        return
    document = document_from_bytes(_bytes(data), doc_id=data["doc_id"], **options)
    got: dict[str, object] = {
        "doc_id": document.doc_id,
        "text": document.text,
        "format": document.format,
        "title": document.title,
        "source": document.source,
        "pages": None if document.pages is None else list(document.pages),
    }
    if "front_matter" in case["output"]:  # FM-3
        found = document.front_matter
        got["front_matter"] = (
            None if found is None else {"format": found.format, "fields": dict(found.fields)}
        )
    assert got == case["output"]


def test_json_nested_too_deeply() -> None:
    """SOURCE-6: JSON nested deeper than the parser recurses is an InputError, not a crash."""
    with pytest.raises(InputError, match=r"^a\.json: not valid JSON"):
        document_from_bytes(b"[" * 100_000, doc_id="a", name="a.json")


def test_read_document_ids_and_sources(tmp_path: Any) -> None:
    """SOURCE-3: doc_id is the file's name without its suffix, source the path as given."""
    path = tmp_path / "guide.v2.md"
    path.write_bytes(b"# Guide\n\nx\n")
    document = read_document(str(path))
    assert (document.doc_id, document.source, document.title) == ("guide.v2", str(path), "Guide")
    assert read_document(path, doc_id="own").doc_id == "own"
    with pytest.raises(InputError, match="no such file"):
        read_document(str(tmp_path / "missing.md"))


def test_counter_names_of_tokenizers(tmp_path: Any) -> None:
    """RECORD-5: a tiktoken counter is named tiktoken:{encoding}; huggingface:{path} builds a
    tokenizer.json's counter whose records carry that very name (all built offline)."""
    from chunkspec.counters import TiktokenCounter, counter_name
    from tests.counters import byte_encoding, word_level

    assert counter_name(TiktokenCounter(byte_encoding())) == "tiktoken:test-bytes"
    path = tmp_path / "tokenizer.json"
    word_level().save(str(path))
    name = f"huggingface:{path}"
    assert counter_name(resolve_counter(name)) == name
    document = document_from_bytes(b"hello world. the page", doc_id="d", input_format="text")
    records = chunk_document(document, "window", max_tokens=2, counter=name)
    assert [(r.text, r.tokens, r.counter) for r in records] == [
        ("hello world", 2, name),
        (". the ", 2, name),
        ("page", 1, name),
    ]

"""The JSON Lines line of a record, written field by field, is ``json.dumps``' (CLI-2, RECORD-1).

``chunkspec chunk`` writes each record with ``record_line`` (no dict, no encoder walk); the
model is the literal form: ``json.dumps(record.to_dict(), ensure_ascii=False)`` with U+0085,
U+2028 and U+2029 escaped, and one newline.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chunkspec import ChunkRecord, chunk_document, document_from_text, hash_text
from chunkspec._records._record_files import record_line
from properties.strategies import markdown_documents
from properties.test_metadata import json_objects

#: Any text a record holds: every code point but lone surrogates, line breaks of every kind.
_text = st.text(st.characters(codec="utf-8") | st.sampled_from('"\\\n\x85\u2028\u2029\x00'))
_count = st.integers(0, 2**53 - 1)


def _model(record: ChunkRecord) -> str:
    """CLI-2 literally: json.dumps of the record's object, Unicode line breaks escaped."""
    line = json.dumps(record.to_dict(), ensure_ascii=False)
    for raw, escaped in (("\x85", "\\u0085"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        line = line.replace(raw, escaped)
    return line + "\n"


@st.composite
def records(draw: st.DrawFn) -> ChunkRecord:
    """A record built by its checked constructor, every field drawn."""
    doc_id = draw(_text)
    index = draw(_count)
    prefix = draw(_text)
    text = prefix + draw(_text)
    start = draw(_count)
    first = draw(st.none() | st.integers(1, 2**53 - 1))
    fields: dict[str, Any] = {
        "id": f"{doc_id}:{index}",
        "doc_id": doc_id,
        "index": index,
        "text": text,
        "start": start,
        "end": draw(st.integers(start, 2**53 - 1)),
        "tokens": draw(_count),
        "counter": draw(_text.filter(bool)),
        "content_hash": hash_text(text),
        "kind": draw(st.sampled_from(["prose", "table", "heading", "body", "window"])),
        "heading_path": tuple(draw(st.lists(_text, max_size=3))),
        "parent_id": draw(st.none() | _text),
        "page_start": first,
        "page_end": None if first is None else draw(st.integers(first, 2**53 - 1)),
        "section": draw(st.none() | _text),
        "prefix": prefix,
        "oversized": draw(st.booleans()),
        "title": draw(_text),
        "source": draw(_text),
        "strategy": draw(_text),
        "metadata": draw(json_objects),
    }
    return ChunkRecord(**fields)


@given(records())
def test_record_line_is_the_json_dumps_line(record: ChunkRecord) -> None:
    """CLI-2, RECORD-1: every field in order, json.dumps' separators and escapes."""
    assert record_line(record) == _model(record)


@given(markdown_documents(), st.sampled_from(["heading", "structural", "window"]))
def test_chunk_document_records_write_alike(text: str, strategy: str) -> None:
    """CLI-2: the records the record loop builds (RECORD-20) write as json.dumps does."""
    document = document_from_text(text, doc_id="d", metadata={"k": ["\u2028", 1.5, None]})
    for record in chunk_document(document, strategy, max_tokens=8):
        assert record_line(record) == _model(record)

"""Golden cases for web pages (docs/spec/html.md, HTML rules): ``tests/golden/html.json``.

Each case reads a page with ``document_from_bytes`` and checks every part of the document
the HTML rules decide: format, text, title, record metadata, blocks (with ``header_rows``),
the markup map's runs, the unplaced count, ``markup_span`` of given ranges, and, where the
case chunks, the records; or the one-line InputError.
"""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec import InputError, SourceDocument, chunk_document, document_from_bytes
from tests import goldens

CASES = goldens.load_file("html")["cases"]


def _read(data: dict[str, Any]) -> SourceDocument:
    """The case's page, read as its keywords say."""
    if "docx" in data:  # HTML-23: a Word file built from the case's paragraphs
        from tests.docx_files import build_docx

        paragraphs = [(style, text) for style, text in data["docx"]["paragraphs"]]
        raw = build_docx(paragraphs, data["docx"].get("table", ()))
    else:
        raw = bytes.fromhex(data["hex"]) if "hex" in data else data["markup"].encode("utf-8")
    return document_from_bytes(
        raw,
        doc_id="d",
        name=data["name"],
        title=data.get("title"),
        metadata=data.get("metadata"),
        encoding=data.get("encoding"),
        keep_furniture=data.get("keep_furniture", False),
    )


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_html(case: dict[str, Any]) -> None:
    """The page reads to the case's document, or fails with its message."""
    if "error" in case:
        with pytest.raises(InputError) as info:
            _read(case["input"])
        assert str(info.value) == case["error"]["message"]
        return
    document = _read(case["input"])
    want = case["output"]
    assert document.format == want["format"]
    assert document.text == want["text"]
    assert document.title == want["title"]
    assert document.record_metadata == want["metadata"]
    blocks = [
        [b.kind, b.level, b.start, b.end, b.attributes.get("header_rows")]
        for b in document.blocks().blocks
    ]
    assert blocks == want["blocks"]
    for block in document.blocks().blocks:  # MD-4 / HTML-8: a block is its region of text
        assert block.text == document.text[block.start : block.end]
    assert document.markup_map is not None
    assert [list(run) for run in document.markup_map.runs()] == want["runs"]
    assert document.markup_map.unplaced == want["unplaced"]
    markup = document.markup
    for start, end, a, b, exact in document.markup_map.runs():  # HTML-18
        if exact:
            assert document.text[start:end] == markup[a:b]
    spans = case["input"].get("spans", [])
    assert [list(document.markup_span(s, e)) for s, e in spans] == want.get("spans", [])
    if "chunk" in case["input"]:
        records = chunk_document(document, **case["input"]["chunk"])
        got = [
            {
                "text": r.text,
                "start": r.start,
                "end": r.end,
                "prefix": r.prefix,
                "kind": r.kind,
                "heading_path": list(r.heading_path),
            }
            for r in records
        ]
        assert got == want["records"]

"""Web pages through ``chunkspec.arrow.chunk_table`` (HTML-17): a page's bytes in a table
give the records ``chunk_document`` gives the page; ``keep_furniture`` is a job keyword."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkspec import chunk_document, document_from_bytes

PAGE = Path(__file__).parent.parent / "data" / "html" / "nodejs-single-executable-applications.html"


@pytest.mark.parametrize("keep", [False, True])
def test_chunk_table_reads_pages(keep: bool) -> None:
    """HTML-11, HTML-17: rows by suffix or input_format equal chunk_document's records."""
    pa = pytest.importorskip("pyarrow")
    from chunkspec.arrow import chunk_table

    data = PAGE.read_bytes()
    table = pa.table(
        {
            "doc_id": ["by-suffix", "by-format"],
            "bytes": [data, data],
            "source": ["page.html", "page"],
            "input_format": [None, "html"],
        }
    )
    out = chunk_table(table, strategy="structural", max_tokens=100, keep_furniture=keep)
    for doc_id, name in (("by-suffix", "page.html"), ("by-format", "page")):
        document = document_from_bytes(
            data, doc_id=doc_id, name=name, input_format="html", keep_furniture=keep
        )
        want = [
            (r.text, r.start, r.end)
            for r in chunk_document(document, strategy="structural", max_tokens=100)
        ]
        rows = [r for r in out.to_pylist() if r["doc_id"] == doc_id]
        assert [(r["text"], r["start"], r["end"]) for r in rows] == want

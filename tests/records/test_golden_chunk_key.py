"""Golden cases of stable chunk keys, tests/golden/chunk_key.json (KEY-1..KEY-8, SCALE-12)."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest
from properties.models import model_chunk_keys

from chunkspec import chunk_document, document_from_text
from chunkspec._records._key import chunk_key, key_fingerprint
from chunkspec.arrow import chunk_table
from tests import goldens


def _records(text: str, case: dict[str, Any]) -> list[Any]:
    """chunk_document of ``text`` under the case's options."""
    data = case["input"]
    document = document_from_text(text, doc_id="d", input_format=data["input_format"])
    return chunk_document(document, **data["options"])


@pytest.mark.parametrize("case", goldens.cases("chunk_key"))
def test_chunk_key(case: dict[str, Any]) -> None:
    """Each case's key, records or renewed keys."""
    data, expected = case["input"], case["output"]
    if "parts" in data:
        parts = data["parts"]
        fingerprint = key_fingerprint(parts["strategy"], parts["counter"])
        got = chunk_key(
            fingerprint,
            parts["doc_id"],
            parts["heading_path"],
            parts["content_hash"],
            parts["occurrence"],
        )
        assert got == expected["key"]
        return
    if "text" in data:
        records = _records(data["text"], case)
        rows = [
            {"index": r.index, "heading_path": list(r.heading_path), "text": r.text, "key": r.key}
            for r in records
        ]
        assert rows == expected["records"]
        assert [r.key for r in records] == model_chunk_keys([r.to_dict() for r in records])
        # SCALE-12: chunk_table's key column is the records' keys
        table = chunk_table(
            pa.table({"doc_id": ["d"], "text": [data["text"]]}),
            input_format=data["input_format"],
            **data["options"],
        )
        assert table.column("key").to_pylist() == [r.key for r in records]
        return
    before = _records(data["before"], case)
    after = _records(data["after"], case)
    old = {r.key for r in before}
    assert [r.index for r in after if r.key not in old] == expected["new_keys_at"]
    if expected.get("ids_moved"):
        moved = {r.key: r.id for r in before}
        assert any(moved.get(r.key) not in (None, r.id) for r in after)

"""Golden cases of the code strategy (tests/golden/code.json, rules CODE-1..CODE-11, MD-18)."""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec import chunk_document, document_from_bytes, document_from_text
from tests import goldens

pytest.importorskip("tree_sitter")


def _run(data: dict[str, Any]) -> dict[str, Any]:
    """Carry out one case: ``chunk`` lists the records, ``read`` the document's format."""
    if data["op"] == "read":
        try:
            document = document_from_bytes(
                data["data"].encode("utf-8"),
                doc_id="d",
                name=data["name"],
                language=data.get("language"),
                input_format=data.get("input_format"),
            )
        except (TypeError, ValueError) as error:
            return {"error": type(error).__name__, "message": str(error)}
        return {"format": document.format, "language": document.language, "title": document.title}
    if data["op"] == "markdown":  # MD-18: structural with split_code
        document = document_from_text(data["text"], doc_id="g")
        records = chunk_document(
            document,
            "structural",
            max_tokens=data["max_tokens"],
            split_code=data["split_code"],
            min_tokens=0,
            counter=data.get("counter"),
        )
        for r in records:
            assert r.text == document.text[r.start : r.end]
        fields = ("start", "end", "kind", "text", "heading_path", "tokens")
        return {
            "records": [
                {f: list(getattr(r, f)) if f == "heading_path" else getattr(r, f) for f in fields}
                for r in records
            ]
        }
    document = document_from_text(
        data["text"], doc_id="m", input_format="code", language=data["language"]
    )
    records = chunk_document(
        document,
        strategy="code",
        max_tokens=data["max_tokens"],
        scope_prefix=data.get("scope_prefix", False),
        counter=data.get("counter", "whitespace"),
    )
    out = []
    for r in records:
        assert r.text == r.prefix + document.text[r.start : r.end]  # the contract (CODE-10)
        out.append(
            {
                "start": r.start,
                "end": r.end,
                "prefix": r.prefix,
                "text": r.text,
                "heading_path": list(r.heading_path),
                "section": r.section,
                "tokens": r.tokens,
                "code": r.to_dict()["metadata"]["code"],
            }
        )
    return {"records": out}


@pytest.mark.parametrize("case", goldens.cases("code"), ids=lambda case: case["id"])
def test_code(case: dict[str, Any]) -> None:
    """Each case's output, exactly."""
    assert _run(case["input"]) == case["output"]

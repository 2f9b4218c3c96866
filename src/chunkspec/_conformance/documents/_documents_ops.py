"""The ``chunk_document`` op of the protocol (CONF-3): a raw file's chunk records.

The answer is what ``chunk_document(document_from_text(text, doc_id=doc_id,
input_format=input_format), strategy, max_tokens=max_tokens)`` returns, in wire form: what
``chunkspec chunk --strategy S FILE.md`` writes for a file read as Markdown (the default,
SOURCE-1) or as plain text. So the reading is under test, not only the chunkers: the title
(SOURCE-5), the front matter left out of ``window`` and ``pages`` (FM-2), its fields in the
metadata (META-3) and TRUST-3's refusal of an access key it sets in a form FM-3 cannot read
(an InputError: ``ValueError`` with no argument), and every chunk's heading path (RECORD-12).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..._core._validate import require_int, require_text
from ..._errors import ArgumentValueError
from ..._records._chunk_document import chunk_document
from ..._text._documents import document_from_text

__all__ = [
    "DOCUMENT_FORMATS",
    "DOCUMENT_STRATEGIES",
    "VECTORS_FILE",
    "document_records",
    "document_vectors",
]

#: The pinned raw files (tests/conformance/document_vectors.py writes them).
VECTORS_FILE = Path(__file__).resolve().parent.parent / "data" / "chunk_document.json"

#: The strategies the op takes (the npm package's, NPM-1) and the formats (NPM-5).
DOCUMENT_STRATEGIES = ("heading", "structural", "window", "pages")
DOCUMENT_FORMATS = ("markdown", "text")


def document_records(
    doc_id: str,
    text: str,
    strategy: str,
    max_tokens: int,
    input_format: str = "markdown",
) -> list[dict[str, Any]]:
    """The records of the file ``text`` read as ``input_format`` under ``strategy``, each
    option left out taking ``chunk_document``'s default (overlap, ``min_tokens``, counter)."""
    require_text("doc_id", doc_id)
    require_text("text", text)
    if strategy not in DOCUMENT_STRATEGIES:
        raise ArgumentValueError(
            "strategy", f"must be one of {', '.join(DOCUMENT_STRATEGIES)}", strategy
        )
    if input_format not in DOCUMENT_FORMATS:
        raise ArgumentValueError(
            "input_format", f"must be one of {', '.join(DOCUMENT_FORMATS)}", input_format
        )
    require_int("max_tokens", max_tokens, minimum=1)  # before the file is read (TRUST-3)
    document = document_from_text(text, doc_id=doc_id, input_format=input_format)
    return [r.to_dict() for r in chunk_document(document, strategy, max_tokens=max_tokens)]


def document_vectors() -> list[dict[str, Any]]:
    """The cases of ``data/chunk_document.json`` as vectors (``source`` ``documents``)."""
    if not VECTORS_FILE.is_file():
        return []
    data = json.loads(VECTORS_FILE.read_text("utf-8"))
    return [{**case, "source": "documents"} for case in data["cases"]]

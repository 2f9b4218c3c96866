"""``chunk_code``: a source file to the spans of the ``code`` strategy (CODE-1..CODE-11).

The answer is what ``chunk_document(document_from_text(text, doc_id="d",
input_format="code", language=language), strategy="code", max_tokens=max_tokens,
counter=counter, scope_prefix=scope_prefix)`` gives, in wire form: ``parser`` (CODE-3: why the
file was split as it was; the same on every record), ``counter`` (the records' counter,
RECORD-5: ``whitespace`` is ``unicode`` on a text holding a SCRIPT-2 character, SCRIPT-6) and
``spans``, one a record, each
``start``, ``end`` (code points of the text, CODE-2), ``prefix`` (CODE-8), ``heading_path``
(CODE-7: the title ``d``, then the scope labels), ``symbols`` and ``lines`` (CODE-11).
``language`` null (or absent) is a file of no language (lines, CODE-3); ``counter`` is
``whitespace`` (default), ``unicode`` or ``chars{N}``; ``scope_prefix`` defaults to false.

The vectors are ``data/chunk_code.json``: small programs in each of the nine languages
(decorators, comments, nested definitions, oversized functions, syntax errors, non-ASCII
names, CRLF), with the rules each exercises and the answer, pinned.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..._chunkers._options import ChunkOptions
from ..._core._validate import require_str
from ..._errors import ArgumentTypeError
from ..._records._chunk_document import chunk_document
from ..._text._documents import document_from_text

__all__ = ["VECTORS_FILE", "chunk_code", "code_vectors"]

#: The fixed cases of ``chunk_code`` (CONF-1): ids, rules, notes, inputs and answers.
VECTORS_FILE = Path(__file__).resolve().parent.parent / "data" / "chunk_code.json"


def chunk_code(
    text: str,
    language: str | None = None,
    max_tokens: int = 64,
    counter: str | None = "whitespace",
    scope_prefix: bool = False,
) -> dict[str, Any]:
    """The ``code`` strategy's spans of ``text`` (CODE-1..CODE-11), in wire form."""
    require_str("text", text)
    if language is not None and not isinstance(language, str):
        raise ArgumentTypeError("language", "a str or None", language)
    document = document_from_text(text, doc_id="d", input_format="code", language=language)
    if counter is None:  # the op names a counter; null is not SCRIPT-35's default, but the
        # options before it are checked first, in ChunkOptions' order
        ChunkOptions("code", max_tokens=max_tokens, counter="whitespace", scope_prefix=scope_prefix)
        counter = require_str("counter", counter)
    records = chunk_document(
        document,
        strategy="code",
        max_tokens=max_tokens,
        counter=counter,
        scope_prefix=scope_prefix,
    )
    parser = records[0].metadata["code"]["parser"] if records else _parser_of(text, language)
    return {
        "parser": parser,
        "counter": records[0].counter if records else _counter_of(text, counter),
        "spans": [
            {
                "start": r.start,
                "end": r.end,
                "prefix": r.prefix,
                "heading_path": list(r.heading_path),
                "symbols": list(r.metadata["code"]["symbols"]),
                "lines": list(r.metadata["code"]["lines"]),
            }
            for r in records
        ],
    }


def _parser_of(text: str, language: str | None) -> str:
    """CODE-3's ``parser`` of a file with no record (nothing but white space): no record says
    it, so the kit states it the way the records would."""
    if language is None:
        return "lines: no language"
    from ..._code._grammar import parser_for

    tree = parser_for(language).parse(text.encode("utf-8"))
    return "tree-sitter with errors" if tree.root_node.has_error else "tree-sitter"


def _counter_of(text: str, counter: str) -> str:
    """The counter a file with no record would have counted with (SCRIPT-6)."""
    from ..._core._units import has_cluster_script

    return "unicode" if counter == "whitespace" and has_cluster_script(text) else counter


def code_vectors() -> list[dict[str, Any]]:
    """The cases of ``data/chunk_code.json`` as vectors (``source`` ``code``)."""
    if not VECTORS_FILE.is_file():
        return []
    data = json.loads(VECTORS_FILE.read_text("utf-8"))
    return [{**case, "source": "code"} for case in data["cases"]]

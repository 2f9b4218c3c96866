"""Golden cases for chunk sizes (tests/golden/size.json): SIZE rules, OPT-7, OPT-8,
RECORD-16, RECORD-17 and CLI-21."""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec import ChunkOptions, chunk_document, document_from_text
from chunkspec._cli import _chunk_command, _ingest_command
from chunkspec._cli._chunking_flags import chunk_options
from chunkspec._cli._io import CliError
from chunkspec._cli._main import build_parser
from tests import goldens

_COMMANDS = {"chunk": _chunk_command, "ingest": _ingest_command}
_FIELDS = ("text", "start", "end", "kind", "heading_path", "parent_id", "section", "tokens")


def _options(data: dict[str, Any]) -> ChunkOptions:
    """The options a case's input describes."""
    op = data["op"]
    if op == "from_strategy_string":
        return ChunkOptions.from_strategy_string(data["value"])
    if op == "cli":
        command = data["command"]
        argv = [command, "doc.md", *(["--out", "o"] if command == "ingest" else [])]
        args = build_parser().parse_args([*argv, *data["argv"]])
        return chunk_options(args, _COMMANDS[command].OPTIONS)
    return ChunkOptions(**data["fields"] if op == "options" else data["options"])


@pytest.mark.parametrize("case", goldens.cases("size"))
def test_size(case: dict[str, Any]) -> None:
    """Each case's records or options, or its error: type, argument and message."""
    data = case["input"]
    if "error" in case:
        want = case["error"]
        kinds = {"TypeError": TypeError, "ValueError": ValueError, "CliError": CliError}
        with pytest.raises(kinds[want["type"]]) as info:
            _options(data)
        assert str(info.value).startswith(want["argument"])
        assert want["message"] in str(info.value)
        return
    options = _options(data)
    want = case["output"]
    if data["op"] != "chunk":
        assert options.minimum == want["minimum"]
        assert options.strategy_string == want["strategy_string"]
        if "to_dict" in want:
            assert options.to_dict() == want["to_dict"]
        return
    source = data["text"]
    records = chunk_document(document_from_text(source, doc_id="g"), options)
    assert all(r.strategy == want["strategy"] for r in records)
    got = [{**{key: getattr(r, key) for key in _FIELDS}, "oversized": r.oversized} for r in records]
    for row in got:
        row["heading_path"] = list(row["heading_path"])
    assert got == want["records"]
    for r in records:
        assert r.text == r.prefix + source[r.start : r.end]  # SIZE-6

"""Golden cases for ChunkOptions and the command-line vocabulary (tests/golden/options.json),
rules OPT-1 to OPT-6."""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec import ChunkOptions, chunk_document, document_from_text
from chunkspec._cli import (
    _chunk_command,
    _ingest_command,
    _pages_command,
    _split_command,
    _window_command,
)
from chunkspec._cli._chunking_flags import chunk_options
from chunkspec._cli._io import CliError
from chunkspec._cli._main import build_parser
from chunkspec.records import STRATEGY_NAMES
from tests import goldens

_COMMANDS = {
    "chunk": _chunk_command,
    "ingest": _ingest_command,
    "pages": _pages_command,
    "split": _split_command,
}
_COMMANDS["window"] = _window_command


def _run(data: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Carry out one case's ``op``; return what its output describes."""
    op = data["op"]
    extra: dict[str, Any] = {}
    if op == "make":
        options = ChunkOptions(**data["fields"])
        extra["strategy_names"] = list(STRATEGY_NAMES)
    elif op == "from_dict":
        options = ChunkOptions.from_dict(data["data"])
    elif op == "from_strategy_string":
        options = ChunkOptions.from_strategy_string(
            data["value"], counter=data.get("counter", "whitespace")
        )
    elif op == "chunk_document":
        document = document_from_text(data["text"], doc_id="g")
        options = ChunkOptions(**data["fields"])
        records = chunk_document(document, options, **data.get("keywords", {}))
        fields = options.to_dict()
        assert chunk_document(document, fields.pop("strategy"), **fields) == records
        return {"texts": [r.text for r in records]}
    else:
        assert op == "cli"
        command = data["command"]
        argv = [command, "doc.md", *(["--out", "o"] if command == "ingest" else [])]
        args = build_parser().parse_args([*argv, *data["argv"]])
        options = chunk_options(args, _COMMANDS[command].OPTIONS)
        return {"to_dict": options.to_dict(), "stderr": capsys.readouterr().err}
    return {
        "to_dict": options.to_dict(),
        "overlap": options.overlap,
        "strategy_string": options.strategy_string,
        "counter_name": options.counter_name,
        **extra,
    }


@pytest.mark.parametrize("case", goldens.cases("options"))
def test_options(case: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """Each case's output, or its error: type, argument and message."""
    data = case["input"]
    if "error" in case:
        want = case["error"]
        kinds = {"TypeError": TypeError, "ValueError": ValueError, "CliError": CliError}
        with pytest.raises(kinds[want["type"]]) as info:
            _run(data, capsys)
        assert str(info.value).startswith(want["argument"])
        assert want["message"] in str(info.value)
        return
    got = _run(data, capsys)
    want = case["output"]
    assert {key: got[key] for key in want} == want

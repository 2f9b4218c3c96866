"""Golden cases for offline tiktoken (tests/golden/tiktoken_files.json), COUNT-9/COUNT-10."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chunkspec import ArgumentValueError
from chunkspec.counters import TiktokenCounter
from tests import goldens, tiny_tiktoken
from tests.frameworks import no_network


def _file(spec: Any, path: Path, tmp_path: Path) -> Path | None:
    """Return the rank file a case describes (see the golden file's description)."""
    if spec is None:
        return None
    if spec == "tiny":
        return path
    out = tmp_path / "case.tiktoken"
    if spec == "tiny+1":
        out.write_bytes(tiny_tiktoken.rank_file() + b"aGk= 266\n")
    else:
        out.write_bytes("".join(line + "\n" for line in spec).encode())
    return out


@pytest.mark.parametrize("case", goldens.cases("tiktoken_files"))
def test_tiktoken_files(
    case: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The counter from the case's file counts as written, or fails naming the argument."""
    no_network(monkeypatch)
    path = tiny_tiktoken.register(monkeypatch, tmp_path)
    given = case["input"]
    chosen = _file(given["file"], path, tmp_path)
    if "error" in case:
        with pytest.raises(ArgumentValueError) as info:
            TiktokenCounter(given["encoding"], encoding_file=chosen)
        assert info.value.argument == case["error"]["argument"]
        assert "\n" not in str(info.value)
        return
    counter = TiktokenCounter(given["encoding"], encoding_file=chosen)
    assert counter.count(given["text"]) == case["output"]["count"]
    assert [list(s) for s in counter.token_spans(given["text"])] == case["output"]["spans"]

"""Golden cases for the contract suite and for ``chunkspec chunk``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chunkspec import parse_markdown
from chunkspec._cli import main
from chunkspec.contract import CHECKS, ContractViolation, Subject, run_check
from chunkspec.markdown import ChunkContext, Document, DocumentChunk
from tests import goldens


def _chunk(record: dict[str, Any]) -> DocumentChunk:
    """Build a chunk from a golden record (offsets are not part of the contract)."""
    return DocumentChunk(
        record["id"],
        record["document_id"],
        record["position"],
        record["parent_id"],
        record["text"],
        -1,
        -1,
        (),
        {"kind": record["kind"]},
        record["tenant_id"],
        record["corpus_id"],
        tuple(record["acl_labels"]),
    )


@pytest.mark.parametrize("case", goldens.cases("contract"))
def test_contract(case: dict[str, Any]) -> None:
    """Exactly the expected rules are violated."""
    data = case["input"]
    subject = Subject.of_chunker("golden", _Fake(data), max_tokens=data["max_tokens"])
    context = ChunkContext(
        data["context"]["tenant_id"],
        data["context"]["corpus_id"],
        tuple(data["context"]["acl_labels"]),
    )
    document = parse_markdown("d", data["markdown"])
    violated = []
    for check in CHECKS:
        try:
            run_check(subject, check, document, context)
        except ContractViolation as error:
            violated.append(str(error).split(":", 1)[0])
    assert violated == case["output"]["violations"]


class _Fake:
    """A chunker that returns the golden chunks, alternating with ``second_run`` if given."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.runs = [data["chunks"], data.get("second_run", data["chunks"])]
        self.calls = 0

    def chunk(self, document: Document, context: ChunkContext | None = None) -> list[DocumentChunk]:
        records = self.runs[self.calls % 2]
        self.calls += 1
        return [_chunk(r) for r in records]


@pytest.mark.parametrize("case", goldens.cases("chunk_cli"))
def test_chunk_cli(
    case: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Exit status, and stdout or a one-line stderr."""
    data = case["input"]
    (tmp_path / data["file"]).write_text(data["content"], encoding="utf-8", newline="")
    monkeypatch.chdir(tmp_path)  # records carry the path as given (RECORD-1 source)
    status = main(["chunk", data["file"], *data["args"]])
    captured = capsys.readouterr()
    assert status == case["output"]["exit"]
    if "stdout" in case["output"]:
        assert captured.out == case["output"]["stdout"]
    if "stderr_contains" in case["output"]:
        assert case["output"]["stderr_contains"] in captured.err
        assert captured.err.count("\n") == 1

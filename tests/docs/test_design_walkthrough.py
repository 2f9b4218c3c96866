"""docs/design.md's "How to add a chunker" walk-through runs as written (OPT-5)."""

from __future__ import annotations

import re
from pathlib import Path

from chunkspec._chunkers._strategies import STRATEGIES

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "design.md"


def _walkthrough_blocks() -> list[str]:
    """The Python blocks of the section, in order (fenced ``py``, so that
    tests/test_docs_examples.py does not register ``lines`` for the rest of its process)."""
    text = DESIGN.read_text("utf-8")
    section = text.split("\n## How to add a chunker\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```py\n(.*?)```", section, re.DOTALL)


def test_the_toy_chunker_registers_and_chunks() -> None:
    """OPT-5: the section's two blocks, run in order, register ``lines`` and its asserted
    records come out; the CLI and ChunkOptions take the new name from the registry."""
    blocks = _walkthrough_blocks()
    assert len(blocks) == 2
    namespace: dict[str, object] = {}
    try:
        for block in blocks:
            exec(compile(block, str(DESIGN), "exec"), namespace)
        assert "lines" in STRATEGIES
        from chunkspec import ChunkOptions, ChunkRecord, chunk_document, document_from_text

        document = document_from_text("a b\n\n# H\nc\n", doc_id="w")
        records = chunk_document(document, "lines", max_tokens=1)
        got = [(r.text, r.heading_path, r.oversized) for r in records]
        assert got == [("a b", (), True), ("# H", ("H",), True), ("c", ("H",), False)]
        for record in records:
            assert ChunkRecord.from_dict(record.to_dict()) == record  # RECORD-2's checks
            assert record.text == document.text[record.start : record.end]
        assert ChunkOptions.from_strategy_string("lines:max_tokens=3").strategy == "lines"
    finally:
        STRATEGIES.pop("lines", None)


def test_chunkers_do_not_import_the_layers_above() -> None:
    """OPT-5's layering: a chunker module hands back spans; it imports no records,
    evaluation or command-line module."""
    folder = DESIGN.parent.parent / "src" / "chunkspec" / "_chunkers"
    above = re.compile(r"^\s*(?:from|import)\s+\S*(?:_records|_evaluation|_cli)\b", re.MULTILINE)
    for path in sorted(folder.glob("*.py")):
        assert not above.search(path.read_text("utf-8")), path.name

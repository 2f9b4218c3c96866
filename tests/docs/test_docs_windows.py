"""The examples in docs/windows.md and docs/pages.md run, and the chunk types are SourceChunks."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from chunkspec import chunk_pages, token_windows
from chunkspec.core import SourceChunk

DOCS = Path(__file__).parents[2] / "docs"


def test_windows_doctests() -> None:
    """Every ``>>>`` example in docs/windows.md gives the output shown."""
    result = doctest.testfile(str(DOCS / "windows.md"), module_relative=False, verbose=False)
    assert result.attempted >= 2
    assert result.failed == 0


def test_pages_examples_run() -> None:
    """The python blocks of docs/pages.md that need no file run and assert what they claim."""
    text = (DOCS / "pages.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    runnable = [b for b in blocks if "report.pdf" not in b]
    assert len(runnable) >= 2
    namespace: dict[str, object] = {"print": lambda *args: None}
    for block in runnable:
        exec(block, namespace)


def test_chunk_types_are_source_chunks() -> None:
    """PageChunk and TokenWindow satisfy the SourceChunk protocol (checked by mypy too)."""
    page_chunk: SourceChunk = chunk_pages(["a b c"], 2, 0)[0]
    window: SourceChunk = token_windows("a b c", 2, 0)[0]
    assert (page_chunk.start, page_chunk.end, page_chunk.embedding_text) == (0, 3, "a b")
    assert (window.start, window.end, window.text) == (0, 4, "a b ")

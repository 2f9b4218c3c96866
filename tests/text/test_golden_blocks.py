"""Golden cases for the Markdown block scans: ``markdown_blocks.json`` (MD-3 to MD-6, MD-14 to
MD-16)."""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec._text._lines import line_table
from chunkspec._text._markdown import PARSERS, parse_markdown_blocks
from chunkspec._text._markdown_fast import available
from chunkspec._text._markdown_scan import definition_lines, scan_spans
from tests import goldens


@pytest.mark.parametrize("case", goldens.cases("markdown_blocks"))
@pytest.mark.parametrize("parser", PARSERS)
def test_markdown_blocks(case: dict[str, Any], parser: str) -> None:
    """Every block scan gives the case's blocks; the hand-written scan decides ``decided``."""
    if parser == PARSERS[0] and not available():
        pytest.skip("the fast extra is not installed")
    source = case["input"]["source"]
    got = [
        {"kind": b.kind, "text": b.text, "start": b.start, "end": b.end, "level": b.level}
        for b in parse_markdown_blocks(source, parser=parser)
    ]
    assert got == case["output"]["blocks"]
    if parser == PARSERS[0]:
        starts, ends = line_table(source)
        marks = definition_lines(source, starts)
        spans, _ = scan_spans(source, starts, ends, 0, marks, len(starts))
        assert len(spans) == case["output"]["decided"]

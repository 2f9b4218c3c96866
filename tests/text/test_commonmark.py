"""Both Markdown chunkers on every one of the 655 CommonMark 0.31.2 spec examples.

Data: tests/data/commonmark-0.31.2-examples.json (CC-BY-SA 4.0, see tests/data/README.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.markdown_invariants import all_invariants

_DATA = Path(__file__).parents[1] / "data" / "commonmark-0.31.2-examples.json"
_EXAMPLES: list[dict[str, Any]] = json.loads(_DATA.read_text("utf-8"))["examples"]


def test_all_examples_present() -> None:
    """The copied data holds the whole spec: 655 examples, numbered 1 to 655."""
    assert [e["example"] for e in _EXAMPLES] == list(range(1, 656))


@pytest.mark.parametrize("example", _EXAMPLES, ids=[f"example-{e['example']}" for e in _EXAMPLES])
@pytest.mark.parametrize(("max_tokens", "overlap"), [(3, 1), (8, 4)])
def test_example(example: dict[str, Any], max_tokens: int, overlap: int) -> None:
    """MD-1..MD-11, HEAD-2..HEAD-10, CONTRACT-1..7 hold on the example."""
    all_invariants(example["markdown"], max_tokens, overlap)


def test_speed_paths_agree_on_every_example() -> None:
    """MD-1, MD-2: on all 655 examples our parser (block rules copied without debug logging)
    gives a stock markdown-it-py parser's tokens, and the line table is the model's."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.deflist import deflist_plugin
    from properties.models import model_lines

    from chunkspec._text._lines import line_table
    from chunkspec._text._markdown_it import markdown_it_parser

    stock = MarkdownIt("commonmark").enable("table").use(deflist_plugin)
    stock.disable("inline")
    for example in _EXAMPLES:
        source = example["markdown"]
        ours = [
            (t.type, t.level, t.nesting, t.map, t.content)
            for t in markdown_it_parser().parse(source)
        ]
        theirs = [(t.type, t.level, t.nesting, t.map, t.content) for t in stock.parse(source)]
        assert ours == theirs, example["example"]
        starts, ends = line_table(source)
        assert list(zip(starts, ends, strict=True)) == model_lines(source), example["example"]

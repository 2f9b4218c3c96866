"""The Markdown speed paths give what the plain code gives (rules MD-1, MD-2)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec._text._lines import line_table
from chunkspec._text._markdown_it import markdown_it_parser

from .models import model_lines
from .strategies import markdown_documents

#: Lines with one kind of terminator throughout, or a mix (the regex path).
_line_texts = st.one_of(
    st.text(st.sampled_from(["a", " ", "\n", "é", "\x85", "\u2028"]), max_size=30),
    st.lists(st.sampled_from(["a", " ", "\r\n", "é"]), max_size=30).map("".join),
    st.lists(st.sampled_from(["a", "\r", "\n", "\r\n", "\n\r"]), max_size=30).map("".join),
)


@given(_line_texts)
def test_line_table_agrees_with_model(text: str) -> None:
    """MD-2: the line table (in C when one terminator kind is used) equals the model's."""
    starts, ends = line_table(text)
    assert list(zip(starts, ends, strict=True)) == model_lines(text)


# Two full parses an example: 200 examples keep this property to a few seconds in the gate.
@settings(max_examples=200)
@given(markdown_documents())
def test_silenced_parser_gives_the_stock_tokens(source: str) -> None:
    """MD-1: our parser, its block rules copied without debug logging, gives the tokens of
    a stock markdown-it-py parser of the same configuration."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.deflist import deflist_plugin

    stock = MarkdownIt("commonmark").enable("table").use(deflist_plugin)
    stock.disable("inline")

    def shape(md: MarkdownIt) -> list[tuple[str, int, int, object, str]]:
        return [(t.type, t.level, t.nesting, t.map, t.content) for t in md.parse(source)]

    assert shape(markdown_it_parser()) == shape(stock)

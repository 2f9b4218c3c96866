"""Properties of render (docs/spec.md RENDER-1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec import Chunk
from chunkspec.core import render

from .strategies import chunks


@given(chunks(), st.text(), st.text())
def test_format(chunk: Chunk, title: str, text: str) -> None:
    """RENDER-1: render(c) is "[" + id + "] " + title + "\\n" + text, nothing else."""
    c = Chunk(chunk.id, chunk.doc_id, title, text, chunk.tokens, chunk.content_hash, chunk.score)
    out = render(c)
    head = "[" + c.id + "] " + title + "\n"
    assert out.startswith(head)
    assert out[len(head) :] == text


@given(st.one_of(st.none(), st.text(), st.dictionaries(st.text(), st.text())))
def test_non_chunk_rejected(value: object) -> None:
    """RENDER-1: render of anything but a Chunk raises TypeError naming c."""
    with pytest.raises(TypeError, match="c must be a Chunk"):
        render(value)  # type: ignore[arg-type]

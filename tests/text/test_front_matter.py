"""Front matter on documents (FM-3): read-only fields that survive a worker process."""

from __future__ import annotations

import pickle

import pytest

from chunkspec import document_from_text


def test_fields_are_read_only_and_pickle() -> None:
    """FM-3: ``fields`` cannot be changed, and a pickled document (a worker, Ray) keeps them."""
    document = document_from_text("---\ntitle: A\nn: 1\n---\nx\n", doc_id="d")
    assert document.front_matter is not None
    with pytest.raises(TypeError):
        document.front_matter.fields["title"] = "B"  # type: ignore[index]
    again = pickle.loads(pickle.dumps(document))
    assert again.front_matter == document.front_matter
    assert dict(again.front_matter.fields) == {"title": "A", "n": "1"}
    with pytest.raises(TypeError):
        again.front_matter.fields["n"] = "2"


def test_only_markdown_has_front_matter() -> None:
    """FM-1: a ``text`` document keeps its ``---`` lines as text and has no front matter."""
    document = document_from_text("---\ntitle: A\n---\nx\n", doc_id="d", input_format="text")
    assert document.front_matter is None
    assert document.body_start == 0

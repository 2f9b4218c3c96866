"""The API reference renders the docstrings' Sphinx roles (docs_build/sphinx_roles.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("griffe", reason="griffe (the docs dependency group) is not installed")

from docs_build.sphinx_roles import rewrite

SRC = Path(__file__).resolve().parents[2] / "src" / "chunkspec"


def test_roles_become_code() -> None:
    """Target, ``~`` short form, explicit title, ``py:`` domain."""
    assert rewrite("see :func:`chunk_document`.") == "see `chunk_document`."
    assert rewrite(":class:`~chunkspec.records.ChunkRecord`") == "`ChunkRecord`"
    assert rewrite(":meth:`the reader <ChunkRecord.from_dict>`") == "`the reader`"
    assert rewrite(":py:data:`x.Y`") == "`x.Y`"


def test_no_role_is_left_in_any_docstring() -> None:
    """Every role spelling the package's sources use is rewritten."""
    left = set()
    for path in SRC.rglob("*.py"):
        left |= set(re.findall(r":[a-z:]+:`", rewrite(path.read_text("utf-8"))))
    assert left == set()

"""The API reference renders the docstrings' Sphinx roles (docs_build/sphinx_roles.py)."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("griffe", reason="griffe (the docs dependency group) is not installed")

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "chunkspec"


def _load() -> Callable[[str], str]:
    """``rewrite`` of docs_build/sphinx_roles.py, loaded by path as mkdocstrings loads it."""
    spec = importlib.util.spec_from_file_location(
        "sphinx_roles", ROOT / "docs_build" / "sphinx_roles.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found: Callable[[str], str] = module.rewrite
    return found


rewrite = _load()


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

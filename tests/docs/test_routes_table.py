"""The "one way to do each thing" tables: the README opens with them, docs/index.md shows
the same, and every Python name they give exists where they say."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECTION = re.compile(r"^## One way to do each thing\n.*?(?=^## )", re.DOTALL | re.MULTILINE)
#: A dotted ``chunkspec`` name in backticks, up to its call or the end of the span.
NAME = re.compile(r"`(chunkspec(?:\.\w+)+)")


def _section(path: Path) -> str:
    """The section of ``path`` holding the tables."""
    found = SECTION.search(path.read_text("utf-8"))
    assert found, path
    return found.group(0)


def _resolves(dotted: str) -> bool:
    """Whether ``dotted`` names a module, or an attribute of the longest module prefix."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(value, part):
                return False
            value = getattr(value, part)
        return True
    return False


def test_readme_opens_with_the_tables() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    first = readme.index("\n## ")
    assert readme[first:].startswith("\n## One way to do each thing\n")


def test_docs_index_shows_the_same_tables() -> None:
    assert _section(ROOT / "docs" / "index.md") == _section(ROOT / "README.md")


def test_every_python_name_exists() -> None:
    names = set(NAME.findall(_section(ROOT / "README.md")))
    assert len(names) >= 20, names
    missing = {name for name in names if not _resolves(name)}
    assert not missing, missing

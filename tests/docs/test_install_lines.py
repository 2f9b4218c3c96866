"""Every install line of the README and docs/ works from a checkout, as written.

chunkspec is not on a package index yet: an install line installs the checkout (``pip
install .`` or ``pip install '.[extra,...]'``) with extras the project defines. A
``pip install`` inside a longer quotation (an error message that names the published form)
is not an install line, nor is the published form a page announces ("once it is published
they will read `pip install chunkspec`").
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: An inline code span that is an install command, and a code line that starts with one.
SPAN = re.compile(r"`((?:\S*/)?pip install\s[^`]*)`")
LINE = re.compile(r"^\s*(?:#\s*|\$\s*)?((?:\S*/)?pip install\s.*?)\s*(?:#.*)?$", re.MULTILINE)
TARGET = re.compile(r"^(?:\S*/)?pip install(?: -q)? (?:\.|'\.\[([a-z0-9,-]+)\]'|nox|uv)(?: |$)")


def _install_lines(text: str) -> list[str]:
    """The install commands of one page: spans that are commands and code lines."""
    found = [
        " ".join(m.group(1).split())
        for m in SPAN.finditer(text)
        if "will read" not in " ".join(text[max(0, m.start() - 60) : m.start()].split())
    ]
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    for block in blocks:
        for match in LINE.finditer(block):
            found.extend(part.strip() for part in match.group(1).split("&&") if "pip" in part)
    return found


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_install_lines_work_from_a_checkout(page: Path) -> None:
    """Each install line installs the checkout, with extras pyproject.toml defines."""
    extras = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
            "optional-dependencies"
        ]
    )
    for line in _install_lines(page.read_text("utf-8")):
        match = TARGET.match(line)
        assert match, f"{page.name}: {line!r} does not install the checkout"
        named = set(match.group(1).split(",")) if match.group(1) else set()
        assert named <= extras, f"{page.name}: {line!r} names an unknown extra"


def test_the_lines_are_found() -> None:
    """The scan sees the quick start, a table's extra and a code comment's extra."""
    lines = [line for page in PAGES for line in _install_lines(page.read_text("utf-8"))]
    assert "pip install ." in lines
    assert "pip install '.[langchain]'" in lines
    assert "pip install '.[pdf]'" in lines
    assert len(lines) > 15

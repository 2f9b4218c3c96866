"""The vector files' rule index in docs/conformance.md (CONF-18), kept equal to the README.

``python -m tests.vector_index --write`` rewrites the table between the
``<!-- vector-index -->`` markers of docs/conformance.md from the ``README.md`` that
``chunkspec vectors`` writes; tests/conformance/test_conformance_vectors.py checks it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from chunkspec._conformance._vectors import vector_files

DOC = Path(__file__).resolve().parents[1] / "docs" / "conformance.md"
MARK = "<!-- vector-index -->"


def table() -> str:
    """The README's first table: per file, its cases and the rules they cover."""
    lines = vector_files()["README.md"].splitlines()
    start = lines.index("| file | cases | rules covered |")
    end = lines.index("", start)
    return "\n".join(lines[start:end]) + "\n"


def embedded(text: str) -> str:
    """The table between the markers of ``text``."""
    _, inside, _ = text.split(MARK)
    return inside.strip("\n") + "\n"


def main(argv: list[str]) -> int:
    """Check (exit 1 when stale) or, with --write, rewrite the embedded table."""
    text = DOC.read_text("utf-8")
    before, _, after = text.split(MARK)
    if "--write" in argv:
        DOC.write_text(f"{before}{MARK}\n{table()}{MARK}{after}", "utf-8")
        return 0
    return 0 if embedded(text) == table() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

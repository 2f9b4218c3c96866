"""A small mixed corpus written into a folder, for the ingest tests and benchmarks."""

from __future__ import annotations

from pathlib import Path

from tests.pdfs import text_pdf


def write_corpus(root: Path, documents: int, *, corrupt_pdf: bool = True) -> list[Path]:
    """Write ``documents`` files (Markdown, text, PDF by turns) under ``root``; return them.

    Every seventh is a PDF made by tests/pdfs.py; with ``corrupt_pdf`` the first PDF is cut
    short, so it is one error row.
    """
    files: list[Path] = []
    for n in range(documents):
        folder = root / f"part{n % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        words = " ".join(f"w{n}x{k}" for k in range(n % 40 + 5))
        if n % 7 == 3:
            data = text_pdf([[f"Page one of {n}", words], [f"Page two {n}", words[:30]]])
            if corrupt_pdf and n == 3:
                data = data[: len(data) // 2]
            path = folder / f"doc{n:04d}.pdf"
            path.write_bytes(data)
        elif n % 2:
            path = folder / f"doc{n:04d}.md"
            text = f"# Doc {n}\n\n{words}\n\n## Part\n\n- item {n}\n- {words[:20]}\n"
            path.write_text(text, encoding="utf-8")
        else:
            path = folder / f"doc{n:04d}.txt"
            path.write_text(f"{words}\n\nSecond paragraph of {n}.\n", encoding="utf-8")
        files.append(path)
    return files

"""A small labelled Markdown corpus for the apply tests, and edits to it (STORE-5)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from chunkspec import ChunkOptions, ingest

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "ünïcode",
    "naïve",
    "café",
    "東京",
    "données",
    "σ",
    "λόγος",
    "word\xa0nbsp",
    "ideographic\u3000space",
    "tab\tword",
]


def sidecar(folder: Path) -> Path:
    """The corpus's ``--metadata`` sidecar (META-7), beside the folder."""
    return folder.parent / f"{folder.name}.metadata.jsonl"


def write_corpus(folder: Path, documents: int = 12, seed: int = 7) -> list[Path]:
    """``documents`` Markdown files with headings and tables, CRLF in some; every fourth
    names a tenant in its front matter, and every third but the first has access labels
    (one or two) in the sidecar, as TRUST-3 wants them (caller metadata)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    lines_of_sidecar = []
    for n in range(documents):
        front = []
        if n % 3:
            labels = ["a", "b"][: 1 + n % 2]
            entry = {"doc_id": f"doc{n:03}", "metadata": {"acl_labels": labels}}
            lines_of_sidecar.append(json.dumps(entry))
        if n % 4 == 0:
            front.append("tenant_id: t1")
        lines = ["---", *front, "---", ""] if front else []
        lines.append(f"# Document {n}")
        for section in range(3):
            lines += ["", f"## Section {section}", ""]
            for _ in range(2):
                lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40))))
                lines.append("")
            if section == 1:
                lines += ["| a | b |", "|---|---|", f"| {n} | {section} |"]
        text = "\n".join(lines) + "\n"
        if n % 5 == 0:
            text = text.replace("\n", "\r\n")
        path = folder / f"doc{n:03}.md"
        path.write_text(text, "utf-8", newline="")
        paths.append(path)
    sidecar(folder).write_text("".join(line + "\n" for line in lines_of_sidecar), "utf-8")
    return paths


def edit_corpus(folder: Path, seed: int) -> None:
    """Change a paragraph of one file, delete one, add one (a small edit run)."""
    rng = random.Random(seed)
    files = sorted(folder.glob("*.md"))
    changed = rng.choice(files)
    changed.write_text(changed.read_text("utf-8") + "\nA new closing paragraph.\n", "utf-8")
    gone = rng.choice([f for f in files if f != changed])
    gone.unlink()
    kept = [
        line
        for line in sidecar(folder).read_text("utf-8").splitlines()
        if json.loads(line)["doc_id"] != gone.stem
    ]
    sidecar(folder).write_text("".join(line + "\n" for line in kept), "utf-8")
    (folder / f"new{seed}.md").write_text(f"# New {seed}\n\nFresh words here.\n", "utf-8")


def chunk(source: Path, out: Path) -> None:
    """Ingest ``source`` into ``out`` with small chunks (many rows from few files)."""
    ingest(
        [str(source)],
        str(out),
        ChunkOptions("heading", max_tokens=24, min_tokens=0),
        workers=1,
        metadata=sidecar(source),
    )

"""Chunk sizes on real Markdown, before and after SIZE-2's default ``min_tokens``.

Run with ``nox -s bench -- sizes`` (or ``python benchmarks/bench_sizes.py [--corpus NAME]``).
Reads the repository's ``docs/*.md``, the MegaMart pages of the evaluation and, when
installed, the Node.js API docs (``/usr/share/doc/nodejs/api/*.md``, from Debian's
``nodejs`` package), and prints, for ``heading`` and ``structural`` at ``max_tokens`` 512 and
256 with ``min_tokens=0`` (the output before SIZE-2) and with the default: the number of
chunks, the median tokens, the share under 10 tokens and the share made only of
headings (SIZE-10). Whitespace tokens (TOK-1). Nothing is asserted: the table of
docs/spec/size.md is this script's output.
"""

from __future__ import annotations

import argparse
import glob
import statistics
import sys
import time
from pathlib import Path

from chunkspec import ChunkOptions, chunk_document, read_document
from chunkspec._records._record import ChunkRecord
from chunkspec._text._documents import SourceDocument

ROOT = Path(__file__).resolve().parent.parent

#: The corpora: name -> glob of Markdown files.
CORPORA = {
    "docs": str(ROOT / "docs" / "*.md"),
    "megamart": str(ROOT / "src" / "chunkspec" / "_evaluation" / "megamart" / "pages" / "*.md"),
    "nodejs": "/usr/share/doc/nodejs/api/*.md",
}


def heading_only(document: SourceDocument, record: ChunkRecord) -> bool:
    """SIZE-10: every block the record's span touches is a heading (a bare heading)."""
    touched = [
        block
        for block in document.blocks().blocks
        if block.start < record.end and block.end > record.start and block.text.strip()
    ]
    return bool(touched) and all(block.kind == "heading" for block in touched)


def measure(
    documents: list[SourceDocument], options: ChunkOptions
) -> tuple[int, float, float, float]:
    """Chunks, median tokens, share under 10 tokens, share heading-only."""
    tokens: list[int] = []
    bare = 0
    for document in documents:
        for record in chunk_document(document, options):
            tokens.append(record.tokens)
            bare += heading_only(document, record)
    if not tokens:
        return 0, 0.0, 0.0, 0.0
    small = sum(t < 10 for t in tokens)
    return len(tokens), statistics.median(tokens), small / len(tokens), bare / len(tokens)


def timing(corpora: list[str]) -> None:
    """Best-of-5 CPU time of chunk_document over each corpus, merging off and on."""
    for corpus in corpora:
        documents = [read_document(f) for f in sorted(glob.glob(CORPORA[corpus]))]
        for strategy in ("heading", "structural"):
            best: dict[int | None, float] = {0: float("inf"), None: float("inf")}
            for _ in range(5):  # interleaved rounds: the machine is shared
                for least in best:
                    options = ChunkOptions(strategy, 512, min_tokens=least)
                    start = time.process_time()
                    for document in documents:
                        chunk_document(document, options)
                    best[least] = min(best[least], time.process_time() - start)
            print(
                f"{corpus} {strategy} 512: min_tokens=0 {best[0]:.3f} s, "
                f"default {best[None]:.3f} s ({best[None] / best[0]:.2f}x)"
            )


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", action="append", choices=tuple(CORPORA), default=None)
    parser.add_argument(
        "--time", action="store_true", help="print chunk_document's CPU time instead (best of 5)"
    )
    args = parser.parse_args()
    if args.time:
        timing(args.corpus or list(CORPORA))
        return
    columns = ("corpus", "strategy", "max_tokens", "min_tokens", "chunks", "median tokens")
    print("| " + " | ".join((*columns, "< 10 tokens", "heading only")) + " |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for corpus in args.corpus or CORPORA:
        files = sorted(glob.glob(CORPORA[corpus]))
        if not files:
            print(f"| {corpus} | (no files at {CORPORA[corpus]}) | | | | | | |", file=sys.stderr)
            continue
        documents = [read_document(f) for f in files]
        for strategy in ("heading", "structural"):
            for size in (512, 256):
                for least in (0, None):
                    options = ChunkOptions(strategy, size, min_tokens=least)
                    n, median, small, bare = measure(documents, options)
                    shown = f"{options.minimum} (default)" if least is None else "0 (before)"
                    print(
                        f"| {corpus} ({len(files)} files) | {strategy} | {size} | {shown} | {n} | "
                        f"{median:g} | {small:.1%} | {bare:.1%} |"
                    )


if __name__ == "__main__":
    main()

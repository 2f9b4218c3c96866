"""``chunkspec pages``: the page-aware chunker (seed 004) over each document, as records."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from .._records._record import ChunkRecord
from .._text._documents import SourceDocument
from ._chunking import run_chunking
from ._chunking_flags import CommandOptions, add_chunking_options
from ._inputs import add_input_options
from ._io import CliError
from ._output import add_output_options

__all__ = ["register"]

#: ``pages`` has a budget of 400 (RECORD-13) and overlaps by a quarter of it (OPT-6).
OPTIONS = CommandOptions("pages", strategy="pages", max_tokens=400)


def register(sub: Any) -> None:
    """Add the ``pages`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "pages",
        help="chunk paged documents (PDF, or text with form feeds) with page spans",
        description=(
            "Chunk each document (a PDF's pages, or text whose pages are separated by form "
            "feeds, U+000C) into overlapping token windows ending at sentence ends, each "
            "record carrying its page span (strategy pages)."
        ),
    )
    add_input_options(parser)
    add_chunking_options(parser, OPTIONS)
    parser.add_argument(
        "--format",
        choices=("jsonl", "text"),
        default="jsonl",
        help="jsonl: one record a line (default); text: each chunk under a header line",
    )
    add_output_options(parser)
    parser.set_defaults(run=run)


def _text(document: SourceDocument, records: Sequence[ChunkRecord]) -> None:
    """Print each chunk under ``--- chunk N: pages A-B, chars S:E, T tokens ---``."""
    out = sys.stdout
    for r in records:
        shown = (
            f"page {r.page_start}"
            if r.page_start == r.page_end
            else (f"pages {r.page_start}-{r.page_end}")
        )
        flag = " OVERSIZED" if r.oversized else ""
        out.write(
            f"--- chunk {r.id}: {shown}, chars {r.start}:{r.end}, {r.tokens} tokens{flag} ---\n"
            f"{r.text}\n"
        )


def run(args: argparse.Namespace) -> int:
    """Chunk the pages of every document and write records (or the text view)."""
    if args.format == "text" and args.output is not None:
        raise CliError("--output writes records; it does not go with --format text")
    return run_chunking(args, OPTIONS, _text if args.format == "text" else None)

"""``chunkspec split``: split a file with split_section and print chunks as JSON Lines."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from .._split import split_section
from ._io import json_line, read_text

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``split`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "split",
        help="split a document into chunks (JSON Lines)",
        description="Split FILE (or - for stdin) with split_section; print one JSON chunk a line.",
    )
    parser.add_argument("file", metavar="FILE", help="UTF-8 text file, or - for stdin")
    parser.add_argument("--max-tokens", type=int, required=True, metavar="N")
    parser.add_argument("--doc-id", metavar="ID", help="default: the file name without suffix")
    parser.add_argument("--title", metavar="T", help="default: the doc id")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Split the file and write JSON Lines to stdout."""
    text = read_text(args.file)
    doc_id = args.doc_id if args.doc_id is not None else _default_id(args.file)
    title = args.title if args.title is not None else doc_id
    chunks = split_section(doc_id, title, text, args.max_tokens)
    out = sys.stdout
    for chunk in chunks:
        out.write(json_line(dataclasses.asdict(chunk)))
    out.flush()
    return 0


def _default_id(path: str) -> str:
    """Return the file name without its suffix, or ``stdin`` for ``-``."""
    return "stdin" if path == "-" else Path(path).stem

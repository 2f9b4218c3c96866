"""``chunkspec split``: seed 000's split_section over each document, as records (CLI-2)."""

from __future__ import annotations

import argparse
from typing import Any

from ._chunking import Chunking, run_chunking
from ._inputs import add_input_options
from ._output import add_output_options

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``split`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "split",
        help="split documents with seed 000's split_section (chunk records, JSON Lines)",
        description=(
            "Split each document with split_section (paragraphs, then lines, then words, "
            "under a whitespace-word budget) and write one chunk record a line "
            "(strategy recursive; docs/spec/records.md)."
        ),
    )
    add_input_options(parser)
    parser.add_argument(
        "--max-tokens", type=int, required=True, metavar="N", help="words per chunk (required)"
    )
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Split the documents and write their records."""
    return run_chunking(args, Chunking("recursive", args.max_tokens, None, "whitespace"))

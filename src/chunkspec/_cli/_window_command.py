"""``chunkspec window``: seed 002's sliding windows over characters or tokens, as records."""

from __future__ import annotations

import argparse
from typing import Any

from ._chunking import run_chunking
from ._chunking_flags import CommandOptions, add_chunking_options
from ._inputs import add_input_options
from ._output import add_output_options

__all__ = ["register"]

#: ``window`` counts characters (chars1) and does not overlap unless asked (OPT-6).
OPTIONS = CommandOptions(
    "window",
    strategy="window",
    max_tokens=None,
    overlap_default=0,
    counter="chars1",
)


def register(sub: Any) -> None:
    """Add the ``window`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "window",
        help="cut documents into overlapping fixed-size windows (chunk records, JSON Lines)",
        description=(
            "Cut each document into windows of --max-tokens characters (or tokens of "
            "--counter) stepping by max-tokens - overlap-tokens; write one chunk record a "
            "line (strategy window, counter chars1 for characters)."
        ),
    )
    add_input_options(parser)
    add_chunking_options(parser, OPTIONS)
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Window the documents and write their records."""
    return run_chunking(args, OPTIONS)

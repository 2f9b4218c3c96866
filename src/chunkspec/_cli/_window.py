"""``chunkspec window``: seed 002's sliding windows over characters or tokens, as records."""

from __future__ import annotations

import argparse
from typing import Any

from ._chunking import Chunking, counter_option_name, run_chunking
from ._counter import add_counter_options, check_counter_options
from ._inputs import add_input_options
from ._output import add_output_options

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``window`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "window",
        help="cut documents into overlapping fixed-size windows (chunk records, JSON Lines)",
        description=(
            "Cut each document into windows of SIZE characters (or tokens of --counter) "
            "stepping by SIZE - OVERLAP; write one chunk record a line (strategy window, "
            "counter chars1 for characters)."
        ),
    )
    add_input_options(parser)
    parser.add_argument(
        "--size", type=int, required=True, metavar="N", help="window size (required)"
    )
    parser.add_argument(
        "--overlap", type=int, default=0, metavar="N", help="shared with the previous window"
    )
    add_counter_options(parser, default=None)
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Window the documents and write their records."""
    check_counter_options(args)
    chunking = Chunking(
        "window",
        args.size,
        args.overlap,
        counter_option_name(args, "chars1"),
        flags={"max_tokens": "--size", "overlap_tokens": "--overlap"},
    )
    return run_chunking(args, chunking)

"""``chunkspec window``: seed-002 sliding windows over characters or tokens (JSON Lines)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._window import chunk, token_windows
from ._counter import add_counter_options, check_counter_options, counter_from
from ._io import json_line, read_text

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``window`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "window",
        help="cut a text into overlapping fixed-size windows (JSON Lines)",
        description=(
            "Cut FILE (or - for stdin) into windows of SIZE characters (or tokens of "
            "--counter) stepping by SIZE - OVERLAP; print one JSON object a line."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="UTF-8 text file, or - for stdin")
    parser.add_argument("--size", type=int, required=True, metavar="N")
    parser.add_argument("--overlap", type=int, default=0, metavar="N")
    add_counter_options(parser, default=None)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write ``{"index", "start", "end", "text"}`` for each window (plus token bounds)."""
    check_counter_options(args)
    text = read_text(args.file)
    out = sys.stdout
    if args.counter is None:
        windows = chunk(text, args.size, args.overlap)
        step = args.size - args.overlap
        for k, window in enumerate(windows):
            row = {"index": k, "start": k * step, "end": k * step + len(window), "text": window}
            out.write(json_line(row))
    else:
        counter = counter_from(args)
        for w in token_windows(text, args.size, args.overlap, counter):
            row = {
                "index": w.index,
                "start": w.start,
                "end": w.end,
                "token_start": w.token_start,
                "token_end": w.token_end,
                "text": w.text,
            }
            out.write(json_line(row))
    out.flush()
    return 0

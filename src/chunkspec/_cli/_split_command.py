"""``chunkspec split``: seed 000's split_section over each document, as records (CLI-2)."""

from __future__ import annotations

import argparse
from typing import Any

from ._chunking import run_chunking
from ._chunking_flags import CommandOptions, add_chunking_options
from ._inputs import add_input_options
from ._output import add_output_options

__all__ = ["register"]

#: ``split`` is ``recursive`` in whitespace words, with a required budget (OPT-6).
OPTIONS = CommandOptions(
    "split", strategy="recursive", max_tokens=None, overlap=False, counter=None
)


def register(sub: Any) -> None:
    """Add the ``split`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "split",
        help="split documents with split_section, CLI-2 (chunk records, JSON Lines)",
        description=(
            "Split each document with split_section (paragraphs, then lines, then words, "
            "under a whitespace-word budget) and write one chunk record a line "
            "(strategy recursive; docs/spec/records.md)."
        ),
    )
    add_input_options(parser)
    add_chunking_options(parser, OPTIONS)
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Split the documents and write their records."""
    return run_chunking(args, OPTIONS)

"""``chunkspec window``: seed 002's sliding windows over characters or tokens, as records."""

from __future__ import annotations

from typing import Any

from ._chunking import add_records_command
from ._chunking_flags import CommandOptions

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
    add_records_command(
        sub,
        OPTIONS,
        help="cut documents into overlapping fixed-size windows (chunk records, JSON Lines)",
        description=(
            "Cut each document into windows of --max-tokens characters (or tokens of "
            "--counter) stepping by max-tokens - overlap-tokens; write one chunk record a "
            "line (strategy window, counter chars1 for characters)."
        ),
    )

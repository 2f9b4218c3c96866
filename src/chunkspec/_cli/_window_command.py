"""``chunkspec window``: ``chunk --strategy window`` under seed 002's name (OPT-9)."""

from __future__ import annotations

from typing import Any

from ._chunk_command import alias_options, register_alias

__all__ = ["OPTIONS", "register"]

#: ``window`` is ``chunk --strategy window``: its flags, defaults and formats (OPT-9).
OPTIONS = alias_options("window", "window")


def register(sub: Any) -> None:
    """Add the ``window`` subcommand to ``sub``."""
    register_alias(
        sub,
        OPTIONS,
        help="chunk --strategy window: overlapping fixed-size windows (chunk records, JSON Lines)",
        description=(
            "chunk --strategy window, with every flag and default of chunk (OPT-9): cut each "
            "document into windows of --max-tokens tokens of --counter (whitespace words by "
            "default; --counter chars1 for characters) stepping by max-tokens - "
            "overlap-tokens, and write one chunk record a line."
        ),
    )

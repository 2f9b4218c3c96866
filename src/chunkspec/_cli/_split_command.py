"""``chunkspec split``: ``chunk --strategy recursive`` under seed 000's name (CLI-2, OPT-9)."""

from __future__ import annotations

from typing import Any

from ._chunk_command import alias_options, register_alias

__all__ = ["OPTIONS", "register"]

#: ``split`` is ``chunk --strategy recursive``: its flags, defaults and formats (OPT-9).
OPTIONS = alias_options("split", "recursive")


def register(sub: Any) -> None:
    """Add the ``split`` subcommand to ``sub``."""
    register_alias(
        sub,
        OPTIONS,
        help="chunk --strategy recursive: seed 000's split_section (chunk records, JSON Lines)",
        description=(
            "chunk --strategy recursive, with every flag and default of chunk (OPT-9): split "
            "each document with split_section (paragraphs, then lines, then words, under a "
            "whitespace-word budget) and write one chunk record a line."
        ),
    )

"""``chunkspec split``: seed 000's split_section over each document, as records (CLI-2)."""

from __future__ import annotations

from typing import Any

from ._chunking import add_records_command
from ._chunking_flags import CommandOptions

__all__ = ["register"]

#: ``split`` is ``recursive`` in whitespace words, with a required budget (OPT-6).
OPTIONS = CommandOptions(
    "split", strategy="recursive", max_tokens=None, overlap=False, counter=None
)


def register(sub: Any) -> None:
    """Add the ``split`` subcommand to ``sub``."""
    add_records_command(
        sub,
        OPTIONS,
        help="split documents with split_section, CLI-2 (chunk records, JSON Lines)",
        description=(
            "Split each document with split_section (paragraphs, then lines, then words, "
            "under a whitespace-word budget) and write one chunk record a line "
            "(strategy recursive; docs/spec/records.md)."
        ),
    )

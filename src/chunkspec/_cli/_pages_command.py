"""``chunkspec pages``: ``chunk --strategy pages`` under seed 004's name (OPT-9)."""

from __future__ import annotations

from typing import Any

from ._chunk_command import alias_options, register_alias

__all__ = ["OPTIONS", "register"]

#: ``pages`` is ``chunk --strategy pages``: its flags, defaults and formats (OPT-9).
OPTIONS = alias_options("pages", "pages")


def register(sub: Any) -> None:
    """Add the ``pages`` subcommand to ``sub``."""
    register_alias(
        sub,
        OPTIONS,
        help="chunk --strategy pages: paged documents (PDF, or text with form feeds)",
        description=(
            "chunk --strategy pages, with every flag and default of chunk (OPT-9): chunk "
            "each document (a PDF's pages, or text whose pages are separated by form feeds, "
            "U+000C) into overlapping token windows ending at sentence ends, each record "
            "carrying its page span."
        ),
    )

"""The ``--counter NAME`` option shared by the subcommands that measure in tokens."""

from __future__ import annotations

from .._counters import (
    CharEstimateCounter,
    TiktokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from ._io import CliError

__all__ = ["COUNTERS", "make_counter"]

#: The names ``--counter`` accepts (docs/cli.md).
COUNTERS = ("whitespace", "chars4", "tiktoken")


def make_counter(name: str, encoding: str = "cl100k_base") -> TokenSpanCounter:
    """Return the counter called ``name``; tiktoken loads ``encoding`` (cached or fetched)."""
    if name == "whitespace":
        return WhitespaceCounter()
    if name == "chars4":
        return CharEstimateCounter()
    if name == "tiktoken":
        try:
            return TiktokenCounter(encoding)
        except ImportError as error:
            raise CliError(str(error)) from None
        except Exception as error:  # tiktoken raises bare errors when it cannot load a file
            raise CliError(f"cannot load tiktoken encoding {encoding!r}: {error}") from None
    raise CliError(f"unknown counter {name!r} (choose from {', '.join(COUNTERS)})")

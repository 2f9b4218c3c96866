"""Token counters: the pluggable measure of size that every chunker with a budget takes."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ._validate import require_str

__all__ = ["TokenCounter", "WhitespaceCounter"]


@runtime_checkable
class TokenCounter(Protocol):
    """Anything that counts the tokens of a text (the seed-003 ``TokenCounter`` protocol)."""

    def count(self, text: str) -> int:
        """Return the number of tokens in ``text``."""
        ...


class WhitespaceCounter:
    """The seed-000 measure: ``len(text.split())`` (rule TOK-1); the default everywhere."""

    name = "whitespace"

    def count(self, text: str) -> int:
        """Return the number of whitespace-separated words in ``text``."""
        return len(require_str("text", text).split())

    def __repr__(self) -> str:
        return "WhitespaceCounter()"

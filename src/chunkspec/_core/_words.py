"""Synthetic word runs for tests and examples (WORDS rules)."""

from __future__ import annotations

from ._validate import require_int, require_str

__all__ = ["words"]


def words(n: int, start: int = 0, word: str = "w") -> str:
    """Return ``" ".join(f"{word}{i}" for i in range(start, start + n))`` (rule WORDS-1)."""
    require_int("n", n, minimum=0)
    require_int("start", start, minimum=0)
    require_str("word", word)
    return " ".join(f"{word}{i}" for i in range(start, start + n))

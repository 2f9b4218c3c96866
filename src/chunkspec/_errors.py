"""Argument errors that name the argument and the value that was rejected."""

from __future__ import annotations

__all__ = ["ArgumentTypeError", "ArgumentValueError", "ChunkspecError"]


def _shown(value: object) -> str:
    """Return a short repr of ``value`` for an error message."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class ChunkspecError(Exception):
    """The base of every error chunkspec raises on purpose: ``except ChunkspecError`` catches
    them all. Each subclass also derives from the built-in it has always been (``TypeError``,
    ``ValueError``), so older ``except ValueError`` code keeps working."""


class ArgumentTypeError(ChunkspecError, TypeError):
    """An argument has the wrong type; ``argument`` names it and ``value`` holds it."""

    def __init__(self, argument: str, expected: str, value: object) -> None:
        self.argument = argument
        self.value = value
        super().__init__(
            f"{argument} must be {expected}, got {type(value).__name__} {_shown(value)}"
        )


class ArgumentValueError(ChunkspecError, ValueError):
    """An argument has the right type but a forbidden value."""

    def __init__(self, argument: str, problem: str, value: object) -> None:
        self.argument = argument
        self.value = value
        super().__init__(f"{argument} {problem}, got {_shown(value)}")

"""A file name as valid text: each byte that is not UTF-8 written ``\\xNN`` (CLI-16, ADAPT-2)."""

from __future__ import annotations

__all__ = ["name_as_text"]


def name_as_text(name: str) -> str:
    """Return ``name`` with each escaped byte (U+DC80..U+DCFF, as ``os.fsdecode`` writes a
    byte that is not UTF-8) as ``\\xNN``; valid text unchanged.

    Raises UnicodeEncodeError for a lone surrogate that is not an escaped byte.
    """
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return name

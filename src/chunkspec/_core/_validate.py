"""Checks shared by every public function: each raises an error naming the argument."""

from __future__ import annotations

import math
import sys

from .._errors import ArgumentTypeError, ArgumentValueError

__all__ = [
    "MAX_SAFE_INTEGER",
    "one_byte_per_code_point",
    "require_int",
    "require_real",
    "require_str",
    "require_text",
    "surrogate_check_encoding",
]

#: 2**53 - 1, the largest integer a JavaScript number holds exactly (rule PORT-1).
MAX_SAFE_INTEGER = 2**53 - 1


#: CPython stores a string whose code points are all below 256 at one byte each; its size is
#: then this header plus ``len + 1`` bytes. Such a string cannot hold a surrogate.
_ONE_BYTE_HEADER = sys.getsizeof("\xe9") - 2 if sys.implementation.name == "cpython" else -(2**62)


def one_byte_per_code_point(text: str) -> bool:
    """True if CPython stores ``text`` at one byte a code point (all below U+0100), in O(1).

    Then a search for a wider code point returns at once. A speed hint only: False when
    unsure (another Python), and no caller's answer depends on it.
    """
    return sys.getsizeof(text) - _ONE_BYTE_HEADER <= len(text) + 1


#: The same for two bytes a code point (all below U+10000): ``header + 2 * (len + 1)``.
_TWO_BYTE_HEADER = sys.getsizeof("\u0100") - 4 if sys.implementation.name == "cpython" else -(2**62)


def surrogate_check_encoding(text: str) -> str:
    """The codec that fails fastest on a lone surrogate in ``text``, and only on one.

    Both codecs raise exactly on a lone surrogate, with ``start`` the first one's index;
    CPython encodes a two-byte string to UTF-16 at about twice its speed to UTF-8, and a
    four-byte one faster to UTF-8. A speed hint only: no caller's answer depends on it.
    """
    if sys.getsizeof(text) - _TWO_BYTE_HEADER <= 2 * (len(text) + 1):
        return "utf-16"
    return "utf-8"


def require_str(argument: str, value: object) -> str:
    """Return ``value`` if it is a ``str``, else raise TypeError."""
    if not isinstance(value, str):
        raise ArgumentTypeError(argument, "a str", value)
    return value


def require_text(argument: str, value: object) -> str:
    """Return ``value`` if it is a ``str`` encodable as UTF-8 (no lone surrogates)."""
    text = require_str(argument, value)
    if text.isascii():  # O(1) in CPython: the flag is cached on the string
        return text
    if one_byte_per_code_point(text):
        return text  # all below U+0100: no surrogate
    # The encoder is C at memory speed; it fails exactly on a lone surrogate, and its
    # error's ``start`` is the first one (the index the message names). A piece at a time:
    # encoding the whole text at once would allocate up to four times its length (the
    # encoder's worst case) just to be thrown away.
    encoding = surrogate_check_encoding(text)
    for at in range(0, len(text), _PIECE):
        try:
            text[at : at + _PIECE].encode(encoding)
        except UnicodeEncodeError as error:
            index = at + error.start
            raise ArgumentValueError(
                argument,
                f"must not contain a lone surrogate (U+{ord(text[index]):04X} at index {index})",
                value,
            ) from None
    return text


#: Characters encoded at once by :func:`require_text`'s surrogate check.
_PIECE = 1 << 16


def require_int(argument: str, value: object, *, minimum: int) -> int:
    """Return ``value`` if it is an ``int`` (not ``bool``) in ``[minimum, 2**53-1]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(argument, "an int", value)
    if value < minimum:
        raise ArgumentValueError(argument, f"must be >= {minimum}", value)
    if value > MAX_SAFE_INTEGER:
        raise ArgumentValueError(argument, "must be <= 2**53 - 1", value)
    return value


def require_real(argument: str, value: object) -> float:
    """Return ``value`` if it is a ``float`` that is not NaN, or an ``int`` (not ``bool``)
    with ``abs(value) <= 2**53 - 1`` (rules PACK-5, PORT-1)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentTypeError(argument, "an int or float", value)
    if isinstance(value, float):
        if math.isnan(value):
            raise ArgumentValueError(argument, "must not be NaN", value)
    elif not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        raise ArgumentValueError(argument, "as an int must be within +-(2**53 - 1)", value)
    return value

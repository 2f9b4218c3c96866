"""WS-1 checked exhaustively: the published set is exactly what Python splits and strips on."""

from __future__ import annotations

import sys

from chunkspec.core import WHITESPACE


def test_whitespace_is_exactly_isspace() -> None:
    everything = (chr(code) for code in range(sys.maxunicode + 1))
    assert {c for c in everything if c.isspace()} == WHITESPACE


def test_split_and_strip_use_the_same_set() -> None:
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert (len(f"a{char}b".split()) == 2) == (char in WHITESPACE)
        assert (f"{char}a{char}".strip() == "a") == (char in WHITESPACE)


def test_table_in_spec_lists_29_code_points() -> None:
    assert len(WHITESPACE) == 29
    assert "\ufeff" not in WHITESPACE
    assert {"\x1c", "\x1d", "\x1e", "\x1f", "\x85"} <= WHITESPACE

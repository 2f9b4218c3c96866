"""Generated cases for ``token_windows``, ``chunk_pages`` and ``split_sentences`` (CONF-10).

As in ``_conformance._generate`` (whose pools, ``_pools``, it shares): a text is ONE
byte-string draw whose bytes pick pieces from a table, so a case costs few Hypothesis choices
and shrinks to a shorter text. The ``hazards``
profile adds what a JavaScript port gets wrong: every Python whitespace character beside
U+FEFF, U+200B and U+180E (JavaScript's ``/\\s/`` and ``trim()`` differ, HAZ-1, HAZ-14),
astral characters before token starts, cuts and page breaks (UTF-16 offsets, HAZ-12,
HAZ-15), CRLF, NBSP, every sentence terminator and closer (SENT-1) and abbreviations
(SENT-3). Pages are one draw too: one table entry is the page break, so empty and blank
pages come up. About one case in four sets one argument to an out-of-range value.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ..._core._tokens import WHITESPACE
from ..._text._sentences import CLOSERS, TERMINATORS
from .._pools import (
    FAULT,
    HAZARD_NAMES,
    NAMES,
    OUT_OF_RANGE,
    PORTABLE_OUT_OF_RANGE,
    Field,
    replace_field,
)

__all__ = ["window_ops"]

Case = tuple[str, dict[str, Any]]

#: Splits a page draw into pages (never inside a page's text).
_BREAK = "\x00page\x00"

_PORTABLE_WORDS = ["a", "b", "xy", "19", "a.", "b?", "c!"]
_PORTABLE_SPACES = [" ", " ", "  ", "\n", "\n\n"]
_HAZARD_WORDS = [
    *_PORTABLE_WORDS,
    "\U0001f600",
    "x\U0001f600",
    "\U0001f600.",
    "\u00e9",
    "\ufeff",
    "\u200b",
    "\u180e",
    "e.g.",
    "\u4e2d\u6587\u3002\u53e5",  # SCRIPT-6: a script without spaces makes the tokens units
    "\u0e01\u0e33\u0e44\u0e17\u0e22",
    "\U0001f44b\U0001f3fd\u1100\u1161",
]
#: Every Python whitespace character but the page break, and CRLF (once each, so that
#: words still come up often).
_HAZARD_SPACES = ["\r\n", *sorted(WHITESPACE - {"\f"})]

#: PAGE-9's sentence ends (SENT-1, SENT-5, SENT-6) and what a port might take for one: a
#: closer after the mark, every script's terminators (。 ？ । ؟ ۔ ።), a wide stop with no
#: space after it and one before a closer, a mark with no whitespace after it, a blank line.
_PAGE_MARKS = [
    '." ',
    ".) ",
    "?' ",
    "!\u00bb ",
    "\u3002 ",
    "\u2026 ",
    "\uff1f ",
    "x.y",
    "\n\n",
    "\u0964 ",
    "\u061f ",
    "\u06d4 ",
    "\u1362 ",
    "\u4e2d\u3002\u6587",
    "\u4e2d\uff01\u300d\u6587",
    "\u4e2d\u3002\u300d ",
    ".\u300d ",
]

#: Sentence pieces: words, terminators, closers, spaces (and abbreviations, SENT-3).
_PORTABLE_SENTENCE = ["a", "bc", "x1", ".", "!", "?", '"', "'", ")", " ", " ", "\n", "e.g."]
_HAZARD_SENTENCE = [
    *_PORTABLE_SENTENCE,
    *sorted(TERMINATORS),
    *sorted(CLOSERS),
    *sorted(WHITESPACE),
    "\r\n",
    "\ufeff",
    "\u200b",
    "\u180e",
    "\U0001f600",
    "Mr.",
    "\u00e9",
    ". ",  # SENT-5 grew the sets above: keep ASCII sentence ends as common as before
    "? ",
    "\u4e2d\u6587",  # SENT-6: ideographs around a full-width mark
    "\u0e44\u0e17\u0e22",
]
#: Budgets at and past 2**31 (valid: PORT-1 bounds them at 2**53 - 1).
_HUGE_SIZES = [2**31, 2**31 + 5, 2**32 + 7, 2**53 - 1]

#: Lone surrogates put into some hazard texts (HAZ-4, PORT-2).
_SURROGATES = ["", "", "", "", "", "", "", "\ud800", "\udfff"]

_POOLS: dict[bool, dict[str, list[Any]]] = {
    False: {
        **PORTABLE_OUT_OF_RANGE,
        "pages": ["ab", None, 3, [None], [1], {"a": "b"}],
    },
    True: {
        **OUT_OF_RANGE,
        "pages": ["ab", None, 3, [None], [1], {"a": "b"}, ["a\fb"], ["x", "\f"], ["x", "\ud800"]],
        "page": ["\ud800", "a\fb", "\f", None, 1, " T ", "\ufeff", "\x85T\x1c"],
    },
}
_POOLS[False]["page"] = ["a\fb", None, 1, " T "]


def _out_of_range(hazards: bool, data: dict[str, Any], fault: int, fields: list[Field]) -> None:
    """About one case in four: set one field to an out-of-range value (``replace_field``)."""
    replace_field(data, fault, fields, _POOLS[hazards])


def _expand(table: list[str], least: list[int], most: int) -> st.SearchStrategy[str]:
    """A text from one byte-string draw, each byte a table entry; a least length first."""

    def expand(code: bytes) -> str:
        return "".join([table[b % len(table)] for b in code])

    return (
        st.sampled_from(least)
        .flatmap(lambda n: st.binary(min_size=n, max_size=n + most))
        .map(expand)
    )


def _with_surrogate(
    hazards: bool, text: st.SearchStrategy[str], inserts: list[str] = _SURROGATES
) -> st.SearchStrategy[str]:
    """Put a lone surrogate (or another of ``inserts``) into some hazard texts (the input
    must then be rejected)."""
    if not hazards:
        return text

    def insert(args: tuple[str, str, int]) -> str:
        body, surrogate, at = args
        at = min(at, len(body))
        return body[:at] + surrogate + body[at:]

    return st.tuples(text, st.sampled_from(inserts), st.integers(0, 40)).map(insert)


def _words_table(hazards: bool) -> list[str]:
    """Alternating word and space entries, so most draws are word, space, word..."""
    if not hazards:
        return [*_PORTABLE_WORDS, *_PORTABLE_SPACES, *_PORTABLE_SPACES]
    return [*_HAZARD_WORDS * 3, *_PORTABLE_SPACES * 4, *_HAZARD_SPACES]


def _sizes(args: tuple[int, int]) -> tuple[int, int]:
    """A size and an overlap below it; one in eight overlaps is at or above the size."""
    size, overlap = args
    return size, overlap if overlap % 8 == 7 else overlap % size


def _huge(args: tuple[int, tuple[int, int], int]) -> tuple[int, int]:
    """The drawn size and overlap, or (when the first draw is 11) a huge size instead."""
    pick, (size, overlap), huge = args
    return (huge, overlap) if pick == 11 else (size, overlap)


def _token_windows(hazards: bool) -> st.SearchStrategy[Case]:
    """token_windows inputs: names, a text of words and spaces, a size and an overlap."""
    names = HAZARD_NAMES if hazards else NAMES
    text = _with_surrogate(hazards, _expand(_words_table(hazards), [0, 4, 12, 24], 30))
    fields: list[Field] = [
        (("doc_id",), "str"),
        (("title",), "str"),
        (("text",), "text"),
        (("max_tokens",), "int"),
        (("overlap_tokens",), "int"),
    ]

    def build(args: tuple[str, tuple[int, int], int, int]) -> Case:
        body, (size, overlap), name, fault = args
        data = {
            "doc_id": names[name % len(names)],
            "title": names[(name // len(names) + 1) % len(names)],
            "text": body,
            "max_tokens": size,
            "overlap_tokens": overlap,
        }
        _out_of_range(hazards, data, fault, fields)
        return "token_windows", data

    sizes = st.tuples(st.integers(1, 8), st.integers(0, 15)).map(_sizes)
    return st.tuples(text, sizes, st.integers(0, len(names) ** 2 - 1), FAULT).map(build)


def _chunk_pages(hazards: bool) -> st.SearchStrategy[Case]:
    """chunk_pages inputs: names, 0 to ~6 pages (some empty or blank), a budget and maybe
    an overlap (absent means RECORD-13's default)."""
    names = HAZARD_NAMES if hazards else NAMES
    table = [*_words_table(hazards), ". ", "? ", "! ", ".\n", _BREAK, _BREAK, *_PAGE_MARKS]
    if hazards:
        table += [".\x1c", ".\x85", ".\ufeff", "!\u3000", ".\r\n", *[_BREAK] * 6]
    # A form feed in about one hazard text in twenty: a page that holds one (PAGE-2).
    inserts = [*_SURROGATES, *_SURROGATES, "\f"]
    text = _with_surrogate(hazards, _expand(table, [0, 6, 16, 30], 30), inserts)

    def build(args: tuple[str, tuple[int, int], bool, int, int]) -> Case:
        body, (size, overlap), given, name, fault = args
        pages = body.split(_BREAK) if body else []
        data: dict[str, Any] = {
            "doc_id": names[name % len(names)],
            "title": names[(name // len(names) + 1) % len(names)],
            "pages": pages,
            "max_tokens": size,
        }
        if given:
            data["overlap_tokens"] = overlap
        fields: list[Field] = [
            (("doc_id",), "str"),
            (("title",), "str"),
            (("pages",), "pages"),
            (("max_tokens",), "int"),
            (("overlap_tokens",), "int"),  # picked when absent: the key is added
            *[(("pages", k), "page") for k in range(len(pages))],
        ]
        _out_of_range(hazards, data, fault, fields)
        return "chunk_pages", data

    sizes = st.tuples(st.integers(1, 10), st.integers(0, 15)).map(_sizes)
    if hazards:
        # About one case in twelve: a budget at or past 2**31, where a default overlap
        # computed with a 32-bit shift (max_tokens >> 2) goes wrong (RECORD-13).
        sizes = st.tuples(st.integers(0, 11), sizes, st.sampled_from(_HUGE_SIZES)).map(_huge)
    return st.tuples(text, sizes, st.booleans(), st.integers(0, len(names) ** 2 - 1), FAULT).map(
        build
    )


def _split_sentences(hazards: bool) -> st.SearchStrategy[Case]:
    """split_sentences inputs: a text of words, terminators, closers and spaces."""
    table = _HAZARD_SENTENCE if hazards else _PORTABLE_SENTENCE
    text = _with_surrogate(hazards, _expand(table, [0, 6, 16], 30))

    def build(args: tuple[str, int]) -> Case:
        data: dict[str, Any] = {"text": args[0]}
        _out_of_range(hazards, data, args[1], [(("text",), "text")])
        return "split_sentences", data

    return st.tuples(text, FAULT).map(build)


def window_ops(profile: str) -> dict[str, st.SearchStrategy[Case]]:
    """The three ops' strategies for ``profile``."""
    hazards = profile == "hazards"
    return {
        "token_windows": _token_windows(hazards),
        "chunk_pages": _chunk_pages(hazards),
        "split_sentences": _split_sentences(hazards),
    }

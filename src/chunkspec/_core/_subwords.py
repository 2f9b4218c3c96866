"""An estimate of what subword tokenizers count: the ``subword`` counter's units (SCRIPT-30..35).

Whitespace words are no measure of what an embedder reads: a 512-word chunk of Hindi is
about 2,600 ``cl100k_base`` tokens, and a line of base64 is one "word" of a hundred
thousand. The units here follow what byte-pair and WordPiece tokenizers do, from tables a
port can copy, and were chosen by measuring ``cl100k_base``, ``o200k_base`` and
all-MiniLM-L6-v2's WordPiece over real text in 29 languages, code, minified JavaScript and
base64 (docs/spec/scripts.md, "Measured"):

* text is cut at whitespace (WS-1) into words, as ``whitespace`` does (SCRIPT-30);
* inside a word, ASCII letters are cut before every capital (``parseJSON`` is ``parse``
  ``J`` ``S`` ``O`` ``N``: base64 and identifiers cost what tokenizers spend on them), and
  every piece is one unit for each started five letters; digits
  are one unit for each started three; each other ASCII character (punctuation, symbols)
  is a unit (SCRIPT-31);
* every grapheme cluster that starts with a non-ASCII code point is a unit per code point
  in it, counted twice or three times in the scripts that the measured tokenizers spend
  two or three tokens a code point on (:data:`HEAVY_RANGES`, SCRIPT-32);
* a word after whitespace other than one plain space (a line break, indentation, a tab,
  two spaces) counts one unit more: byte-pair tokenizers spend a token on it (SCRIPT-33).

A unit's span is its text; a cluster counted twice has its span twice (COUNT-3 lets spans
repeat, as a tiktoken token's do, COUNT-7), so ``count(text) == len(token_spans(text))``
always holds (COUNT-2).
"""

from __future__ import annotations

import bisect
import functools
import re
from array import array
from collections.abc import Iterator

from ._graphemes import grapheme_bounds
from ._tokens import WHITESPACE

__all__ = [
    "HEAVY_RANGES",
    "subword_count",
    "subword_spans",
    "subword_starts",
]

#: Code points the measured tokenizers spend about two (weight 2) or three (weight 3)
#: tokens on, as ``(first, last, weight)``; every other non-ASCII code point weighs 1
#: (SCRIPT-32). Measured per code point of each script's runs (docs/spec/scripts.md).
HEAVY_RANGES: tuple[tuple[int, int, int], ...] = (
    (0x0530, 0x058F, 2),  # Armenian
    (
        0x0980,
        0x0DFF,
        2,
    ),  # Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala
    (0x0E80, 0x0EFF, 2),  # Lao
    (0x0F00, 0x0FFF, 2),  # Tibetan
    (0x1000, 0x109F, 2),  # Myanmar
    (0x10A0, 0x10FF, 2),  # Georgian
    (0x1100, 0x11FF, 2),  # Hangul Jamo
    (0x1200, 0x139F, 3),  # Ethiopic, Ethiopic Supplement
    (0x1780, 0x17FF, 2),  # Khmer
    (0x19E0, 0x19FF, 2),  # Khmer Symbols
    (0x1C90, 0x1CBF, 2),  # Georgian Extended
    (0x2D00, 0x2D2F, 2),  # Georgian Supplement
    (0x2D80, 0x2DDF, 3),  # Ethiopic Extended
    (0x3130, 0x318F, 2),  # Hangul Compatibility Jamo
    (0xA960, 0xA97F, 2),  # Hangul Jamo Extended-A
    (0xA9E0, 0xA9FF, 2),  # Myanmar Extended-B
    (0xAA60, 0xAA7F, 2),  # Myanmar Extended-A
    (0xAB00, 0xAB2F, 3),  # Ethiopic Extended-A
    (0xAC00, 0xD7FF, 2),  # Hangul Syllables, Hangul Jamo Extended-B
    (0x10000, 0x10FFFF, 2),  # every astral code point: emoji, CJK Extension B.., historic scripts
)

_STARTS = [first for first, _, _ in HEAVY_RANGES]

#: A maximal run of non-whitespace characters (a whitespace word, COUNT-4).
_WORD = re.compile("[^" + re.escape("".join(sorted(WHITESPACE))) + "]+")
#: ASCII pieces (SCRIPT-31): an optional capital and small letters, a capital alone, digits,
#: one other ASCII character that is not whitespace.
_LETTERS_OR_DIGITS = r"[A-Z]?[a-z]+|[A-Z]|[0-9]+"
_ASCII_PIECE = re.compile(_LETTERS_OR_DIGITS + r"|[^A-Za-z0-9]")
#: Characters a piece of each kind holds per unit (SCRIPT-31).
_LETTERS_PER_UNIT = 5
_DIGITS_PER_UNIT = 3


def _weight(cp: int) -> int:
    """A non-ASCII code point's weight (SCRIPT-32)."""
    k = bisect.bisect_right(_STARTS, cp) - 1
    if k >= 0 and cp <= HEAVY_RANGES[k][1]:
        return HEAVY_RANGES[k][2]
    return 1


def _per_unit(first: str) -> int:
    """The characters of an ASCII piece starting with ``first`` per unit (SCRIPT-31)."""
    return _LETTERS_PER_UNIT if first.isalpha() else _DIGITS_PER_UNIT if first.isdigit() else 1


def _ascii_spans(piece: re.Match[str], spans: list[tuple[int, int]]) -> None:
    """Append the units of one ASCII piece (SCRIPT-31)."""
    a, b = piece.span()
    step = _per_unit(piece.string[a])
    spans.extend((s, min(b, s + step)) for s in range(a, b, step))


def _word_spans(text: str, a: int, b: int, spans: list[tuple[int, int]]) -> None:
    """Append the units of the word ``text[a:b]`` (SCRIPT-31, SCRIPT-32)."""
    if text.isascii() or text[a:b].isascii():
        for piece in _ASCII_PIECE.finditer(text, a, b):
            _ascii_spans(piece, spans)
        return
    # Clusters that start with an ASCII character form runs cut as ASCII text by their
    # first characters (a combining mark stays with its letter); every other cluster is
    # its own piece, one span per weight.
    bounds = grapheme_bounds(text, a, b)
    k = 0
    last = len(bounds) - 1
    while k < last:
        s = bounds[k]
        if text[s].isascii():
            j = k
            while j < last and text[bounds[j]].isascii():
                j += 1
            heads = "".join(text[bounds[i]] for i in range(k, j))
            for piece in _ASCII_PIECE.finditer(heads):
                p, q = piece.span()
                step = _per_unit(heads[p])
                spans.extend(
                    (bounds[k + i], bounds[k + min(q, i + step)]) for i in range(p, q, step)
                )
            k = j
            continue
        e = bounds[k + 1]
        weight = sum(_weight(ord(ch)) for ch in text[s:e])
        spans.extend([(s, e)] * weight)
        k += 1


def _units_by_word(text: str) -> Iterator[list[tuple[int, int]]]:
    """Each whitespace word's units (SCRIPT-31, SCRIPT-32), its first span twice after
    whitespace other than one plain space (SCRIPT-33); the list is reused between words."""
    spans: list[tuple[int, int]] = []
    for word in _WORD.finditer(text):
        a, b = word.span()
        spans.clear()
        _word_spans(text, a, b, spans)
        if a and (text[a - 1] != " " or (a > 1 and text[a - 2].isspace())):
            spans.insert(0, spans[0])  # SCRIPT-33: more than one plain space before
        yield spans


def subword_spans(text: str) -> list[tuple[int, int]]:
    """Return the ``subword`` units of ``text`` as ``(start, end)`` offsets (SCRIPT-30..33).

    Starts never decrease; a span repeats once per weight (SCRIPT-32) and a word after
    whitespace other than one plain space repeats its first span (SCRIPT-33); spans never
    hold whitespace, never cut a grapheme cluster, and together hold every non-whitespace
    character.
    """
    spans: list[tuple[int, int]] = []
    for units in _units_by_word(text):
        spans.extend(units)
    return spans


def subword_starts(text: str) -> array[int]:
    """Return the starts of :func:`subword_spans` as machine integers, word by word.

    ``list(subword_starts(t)) == [s for s, _ in subword_spans(t)]``; the windows of
    ``window`` and ``pages`` need only the starts (SCRIPT-10), and a pair per unit costs
    about 100 bytes, 100 times a text of one-character cells (TRUST-51).
    """
    starts: array[int] = array("q")
    for units in _units_by_word(text):
        starts.extend(start for start, _ in units)
    return starts


@functools.lru_cache(maxsize=65536)
def _word_units(word: str) -> int:
    """The units of one whitespace word (SCRIPT-31, SCRIPT-32), cached."""
    spans: list[tuple[int, int]] = []
    _word_spans(word, 0, len(word), spans)
    return len(spans)


#: The pieces of an ASCII text in one pass: :data:`_ASCII_PIECE`'s, over the whole text,
#: so the one-character pieces leave out ASCII whitespace (``str.isspace``, WS-1).
_COUNT_PIECE = re.compile(_LETTERS_OR_DIGITS + r"|[!-/:-@\[-`{-~\x00-\x08\x0e-\x1b\x7f]")
_SPACE = "[" + re.escape("".join(sorted(WHITESPACE))) + "]"
_OTHER_SPACE = "[" + re.escape("".join(sorted(WHITESPACE - {" "}))) + "]"
#: Whitespace before a word that is not exactly one U+0020 SPACE (SCRIPT-33).
_SPACED_WORD = re.compile(f"(?:{_SPACE}{{2,}}|{_OTHER_SPACE})(?!{_SPACE})(?=.)", re.DOTALL)


def subword_count(text: str) -> int:
    """Return ``len(subword_spans(text))`` (SCRIPT-30..33) without building the spans.

    A word's units depend on the word alone (its clusters are read as if the text began
    there, SCRIPT-4) plus one after whitespace other than one plain space (SCRIPT-33), so
    a text holding non-ASCII characters is counted word by word from a cache: real text
    repeats its words.
    """
    if not text.isascii():
        return sum(map(_word_units, text.split())) + len(_SPACED_WORD.findall(text))
    total = 0
    for piece in _COUNT_PIECE.findall(text):
        total += -(-len(piece) // _per_unit(piece[0]))  # a unit per started step
    return total + len(_SPACED_WORD.findall(text))

"""Units that exist in every script: the ``unicode`` counter's tokens (rules SCRIPT-1..SCRIPT-3).

A simplification of UAX #29 word boundaries that a port implements from one table, without
ICU or dictionaries: text is cut at whitespace (``str.isspace``, WS-1) into words; inside a
word, every grapheme cluster (SCRIPT-4) that starts with a character of a script written
without spaces between words (:data:`CLUSTER_SCRIPT_RANGES`: Han, kana, Hangul, Bopomofo,
Thai, Lao, Khmer, Myanmar) is a unit of its own, and each maximal run of the other
clusters is one unit. So on text of scripts that use spaces the units are exactly the
whitespace words (COUNT-4), and on Chinese or Japanese each ideograph or kana is one.
"""

from __future__ import annotations

import functools
import re

from ._graphemes import grapheme_bounds
from ._tokens import WHITESPACE
from ._validate import one_byte_per_code_point
from ._word_count import PIECE, whitespace_pieces, word_count

__all__ = ["CLUSTER_SCRIPT_RANGES", "has_cluster_script", "unit_count", "unit_spans"]

#: Code points of the scripts written without spaces between words (SCRIPT-2). CJK
#: punctuation (U+3000..U+303F but the iteration marks, U+FF00..U+FF65) is not here: a
#: full stop belongs to the run of other characters around it.
CLUSTER_SCRIPT_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x1780, 0x17FF),  # Khmer
    (0x19E0, 0x19FF),  # Khmer Symbols
    (0x2E80, 0x2FDF),  # CJK Radicals Supplement, Kangxi Radicals
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3031, 0x3035),  # kana repeat marks
    (0x3038, 0x303C),  # 〸 〹 〺 〻 〼
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x3130, 0x318F),  # Hangul Compatibility Jamo
    (0x31A0, 0x31BF),  # Bopomofo Extended
    (0x31F0, 0x31FF),  # Katakana Phonetic Extensions
    (0x3400, 0x4DBF),  # CJK Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A
    (0xA9E0, 0xA9FF),  # Myanmar Extended-B
    (0xAA60, 0xAA7F),  # Myanmar Extended-A
    (0xAC00, 0xD7FF),  # Hangul Syllables, Hangul Jamo Extended-B
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFF66, 0xFFDC),  # halfwidth Katakana and Hangul
    (0x1AFF0, 0x1B16F),  # Kana Extended-B, Kana Supplement, Kana Extended-A, Small Kana
    (0x20000, 0x3FFFF),  # CJK Extensions B.. (planes 2 and 3)
)


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    """A regular-expression character class of ``ranges``."""
    return "[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges) + "]"


#: One character of a script written without spaces (SCRIPT-2).
_CLUSTER_CHAR = re.compile(_class(CLUSTER_SCRIPT_RANGES))
#: A maximal run of non-whitespace characters (a whitespace word, COUNT-4).
_WORD = re.compile("[^" + re.escape("".join(sorted(WHITESPACE))) + "]+")


def has_cluster_script(text: str, start: int = 0, end: int | None = None) -> bool:
    """Return True if ``text[start:end]`` holds a character of :data:`CLUSTER_SCRIPT_RANGES`."""
    if start == 0 and end is None and text.isascii():
        return False
    stop = len(text) if end is None else end
    return _CLUSTER_CHAR.search(text, start, stop) is not None


def unit_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Return the units of ``text[start:end]`` as ``(s, e)`` offsets into ``text`` (SCRIPT-3).

    Units are in order, disjoint, never hold whitespace, never cut a grapheme cluster,
    and together hold every non-whitespace character.
    """
    stop = len(text) if end is None else end
    if not has_cluster_script(text, start, stop):
        return [m.span() for m in _WORD.finditer(text, start, stop)]
    spans: list[tuple[int, int]] = []
    for word in _WORD.finditer(text, start, stop):
        a, b = word.span()
        if not has_cluster_script(text, a, b):
            spans.append((a, b))
            continue
        bounds = grapheme_bounds(text, a, b)
        run = -1  # the start of the current run of other clusters, or -1
        for k in range(len(bounds) - 1):
            s = bounds[k]
            if _CLUSTER_CHAR.match(text, s):
                if run >= 0:
                    spans.append((run, s))
                    run = -1
                spans.append((s, bounds[k + 1]))
            elif run < 0:
                run = s
        if run >= 0:
            spans.append((run, b))
    return spans


def unit_count(text: str) -> int:
    """Return ``len(unit_spans(text))`` without building the spans (SCRIPT-3).

    Units never cross whitespace and a word's units depend on the word alone (its grapheme
    clusters are read as if the text began there, SCRIPT-4), so the count is the
    whitespace words (``str.split``, WS-1) plus, for each word holding a character of a
    script written without spaces, its units beyond the first. Text without such a
    character (most text, and most chunks of a document that holds one) is counted by
    ``str.split`` alone, in C.
    """
    if text.isascii() or one_byte_per_code_point(text) or _CLUSTER_CHAR.search(text) is None:
        return word_count(text)  # isascii and the one-byte test take O(1) in CPython
    if len(text) > PIECE:  # words never cross a piece: bounded memory (TRUST-51)
        return sum(map(_piece_units, whitespace_pieces(text)))
    return _piece_units(text)


def _piece_units(text: str) -> int:
    """:func:`unit_count` of ``text`` by its whitespace words."""
    words = text.split()
    clustered = filter(_CLUSTER_CHAR.search, words)
    return len(words) + sum(map(_more_units, clustered))


def _more_units(word: str) -> int:
    """The units of one whitespace word beyond its first (SCRIPT-4: the word's alone)."""
    if len(word) > _CACHED_LENGTH:
        return len(unit_spans(word)) - 1
    return _cached_more_units(word)


#: The longest word whose units are cached, and how many words are: at most 1,024 words of
#: 4,096 characters, 16 MiB in the worst case (four bytes a character).
_CACHED_LENGTH = 4096


@functools.lru_cache(maxsize=1024)
def _cached_more_units(word: str) -> int:
    """:func:`_more_units`, cached: a chunker counts the same words again as it tries longer
    and shorter pieces (a sentence of a script without spaces is one long word)."""
    return len(unit_spans(word)) - 1

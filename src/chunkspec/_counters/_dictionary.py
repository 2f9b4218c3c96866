"""Dictionary words of Chinese, Japanese, Thai, Lao, Khmer and Myanmar (rules SCRIPT-20..SCRIPT-26).

The ``dict`` counter: the ``unicode`` counter's units (SCRIPT-3), except that each run of
touching units of a dictionary script (:data:`DICTIONARY_RANGES`) is cut into words by ICU's
word break iterator, which the extra ``chunkspec[segment]`` brings (``icu4py``, whose wheels
bundle ICU and its dictionaries). ICU is imported when a counter is built, never by
``import chunkspec``; the counter's name records ICU's version (SCRIPT-22), because another
ICU cuts other words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .._core._units import CLUSTER_SCRIPT_RANGES, unit_spans
from .._core._validate import require_str
from .._errors import ArgumentValueError

__all__ = ["DICTIONARY_RANGES", "DictionaryCounter", "dictionary_spans", "icu_word_ends"]

#: SCRIPT-2's ranges less Hangul and Bopomofo (SCRIPT-21): the scripts ICU's word break
#: iterator cuts with a dictionary (Han and kana by one Chinese-Japanese dictionary; Thai,
#: Lao, Khmer and Myanmar by one each). Halfwidth katakana stay; halfwidth Hangul go.
_NOT_DICTIONARY = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x3100, 0x312F),  # Bopomofo
    (0x3130, 0x318F),  # Hangul Compatibility Jamo
    (0x31A0, 0x31BF),  # Bopomofo Extended
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A
    (0xAC00, 0xD7FF),  # Hangul Syllables, Hangul Jamo Extended-B
    (0xFFA0, 0xFFDC),  # halfwidth Hangul
)


def _less(
    ranges: tuple[tuple[int, int], ...], removed: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, int], ...]:
    """``ranges`` without the code points of ``removed``."""
    kept: list[tuple[int, int]] = []
    for a, b in ranges:
        pieces = [(a, b)]
        for x, y in removed:
            pieces = [
                part
                for p, q in pieces
                for part in ((p, min(q, x - 1)), (max(p, y + 1), q))
                if part[0] <= part[1]
            ]
        kept.extend(pieces)
    return tuple(kept)


DICTIONARY_RANGES: tuple[tuple[int, int], ...] = _less(CLUSTER_SCRIPT_RANGES, _NOT_DICTIONARY)

_DICTIONARY_CHAR = re.compile(
    "[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in DICTIONARY_RANGES) + "]"
)
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")

#: A function that returns the word ends ICU finds in a text, as code-point offsets.
WordEnds = Callable[[str], Iterable[int]]


def dictionary_spans(text: str, word_ends: WordEnds) -> list[tuple[int, int]]:
    """Return the ``dict`` counter's units of ``text`` (SCRIPT-20).

    SCRIPT-3's units, but each maximal run of touching units that start with a
    :data:`DICTIONARY_RANGES` character is cut at the ends ``word_ends(run)`` gives for the
    run's text alone that are unit boundaries of the run (so never inside a grapheme
    cluster, SCRIPT-23).
    """
    units = unit_spans(text)
    if _DICTIONARY_CHAR.search(text) is None:
        return units
    spans: list[tuple[int, int]] = []
    i, n = 0, len(units)
    while i < n:
        a, b = units[i]
        if not _DICTIONARY_CHAR.match(text, a):
            spans.append((a, b))
            i += 1
            continue
        j = i + 1
        while (
            j < n and units[j][0] == units[j - 1][1] and _DICTIONARY_CHAR.match(text, units[j][0])
        ):
            j += 1
        end = units[j - 1][1]
        if j == i + 1:
            spans.append((a, b))
        else:
            starts = {s for s, _ in units[i + 1 : j]}
            cuts = sorted({a + k for k in word_ends(text[a:end])} & starts)
            spans.extend(zip([a, *cuts], [*cuts, end], strict=True))
        i = j
    return spans


def icu_word_ends(breaker: Callable[[str, str], object]) -> WordEnds:
    """Word ends of ICU's word break iterator (root locale) as code-point offsets.

    ICU counts UTF-16 code units: a text with characters beyond U+FFFF is mapped back.
    """

    def ends(text: str) -> list[int]:
        segments: Iterable[tuple[int, int]] = breaker(text, "root").segments()  # type: ignore[attr-defined]
        if _ASTRAL.search(text) is None:
            return [e for _, e in segments]
        points: dict[int, int] = {}
        units = 0
        for k, char in enumerate(text):
            points[units] = k
            units += 2 if ord(char) > 0xFFFF else 1
        points[units] = len(text)
        return [points[e] for _, e in segments if e in points]

    return ends


class DictionaryCounter:
    """Dictionary words where a script has no spaces, ``unicode`` units elsewhere (SCRIPT-20).

    Needs the extra ``chunkspec[segment]`` (``icu4py``, Python 3.11+). ``version`` is the
    ICU version a record's name pins (``dict:icu-78.3``): another ICU is a ValueError
    (SCRIPT-22). The record name is ``dict:icu-{ICU version}``.
    """

    def __init__(self, version: str | None = None) -> None:
        try:
            import icu4py
            from icu4py.breakers import WordBreaker
        except ImportError:
            raise ImportError(
                "icu4py is not installed: pip install 'chunkspec[segment]' "
                "(Python 3.11 or later) for the dict counter"
            ) from None
        installed = str(icu4py.icu_version)
        if version is not None and version != installed:
            raise ArgumentValueError(
                "counter",
                f"counts with ICU {version}, but this process has ICU {installed} "
                f"(dict:icu-{installed}); install the icu4py release that bundles ICU "
                f"{version} to count the same words",
                f"dict:icu-{version}",
            )
        self.icu_version = installed
        self.name = f"dict:icu-{installed}"
        self._word_ends = icu_word_ends(WordBreaker)

    def count(self, text: str) -> int:
        """Return the number of units of ``text`` (SCRIPT-20)."""
        return len(dictionary_spans(require_str("text", text), self._word_ends))

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return the span of every unit (SCRIPT-20)."""
        return dictionary_spans(require_str("text", text), self._word_ends)

    def spans_in(self, source: str, start: int, end: int) -> list[tuple[int, int]]:
        """The units of ``source[start:end]`` alone, as offsets into ``source`` (SCRIPT-24)."""
        return [
            (start + a, start + b) for a, b in dictionary_spans(source[start:end], self._word_ends)
        ]

    def __repr__(self) -> str:
        return f"DictionaryCounter({self.icu_version!r})"

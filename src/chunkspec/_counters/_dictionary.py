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

#: A segmenter: for each run's text, the word ends it finds in that text alone, as
#: code-point offsets into it (one call for all the runs of a text).
WordEnds = Callable[[list[str]], list[Iterable[int]]]


def dictionary_spans(text: str, word_ends: WordEnds) -> list[tuple[int, int]]:
    """Return the ``dict`` counter's units of ``text`` (SCRIPT-20).

    SCRIPT-3's units, but each maximal run of two or more touching units that start with a
    :data:`DICTIONARY_RANGES` character is cut at the ends ``word_ends`` gives for the
    run's text alone that are unit boundaries inside the run (so never inside a grapheme
    cluster, SCRIPT-23).
    """
    units = unit_spans(text)
    if _DICTIONARY_CHAR.search(text) is None:
        return units
    runs: list[tuple[int, int]] = []  # (first unit, unit after the last) of each run
    i, n = 0, len(units)
    while i < n:
        if not _DICTIONARY_CHAR.match(text, units[i][0]):
            i += 1
            continue
        j = i + 1
        while (
            j < n and units[j][0] == units[j - 1][1] and _DICTIONARY_CHAR.match(text, units[j][0])
        ):
            j += 1
        if j > i + 1:
            runs.append((i, j))
        i = j
    found = word_ends([text[units[i][0] : units[j - 1][1]] for i, j in runs])
    spans: list[tuple[int, int]] = []
    done = 0
    for (i, j), ends in zip(runs, found, strict=True):
        spans.extend(units[done:i])
        a, end = units[i][0], units[j - 1][1]
        starts = {s for s, _ in units[i + 1 : j]}
        cuts = sorted({a + k for k in ends} & starts)
        spans.extend(zip([a, *cuts], [*cuts, end], strict=True))
        done = j
    spans.extend(units[done:])
    return spans


def icu_word_ends(breaker: Callable[[str, str], object]) -> WordEnds:
    """Word ends of ICU's word break iterator (root locale), as code-point offsets.

    One iterator for all the runs, joined by line feeds: ICU always breaks before and after
    a line feed (UAX #29 WB3a, WB3b) and its dictionary ranges never cross one, so each run
    gets the ends it gets alone (a property checks it, SCRIPT-20). ICU counts UTF-16 code
    units: a text with characters beyond U+FFFF is mapped back.
    """

    def ends(runs: list[str]) -> list[Iterable[int]]:
        if not runs:
            return []
        joined = "\n".join(runs)
        segments: Iterable[tuple[int, int]] = breaker(joined, "root").segments()  # type: ignore[attr-defined]
        points = [e for _, e in segments]
        if _ASTRAL.search(joined) is not None:
            offsets: dict[int, int] = {}
            units = 0
            for k, char in enumerate(joined):
                offsets[units] = k
                units += 2 if ord(char) > 0xFFFF else 1
            offsets[units] = len(joined)
            points = [offsets[e] for e in points if e in offsets]
        out: list[list[int]] = [[] for _ in runs]
        k, first, last = 0, 0, len(runs[0])
        for e in points:  # ascending
            while e > last:
                k += 1
                first = last + 1
                last = first + len(runs[k])
            if e > first:
                out[k].append(e - first)
        return list(out)

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

"""A literal model of the ``subword`` units (SCRIPT-30..SCRIPT-33), written from the rules.

No regular expression of the implementation: clusters come from the `regex` module's
``\\X`` (an independent UAX #29), ASCII pieces from a character-by-character walk, weights
from a plain list of ranges.
"""

from __future__ import annotations

import pytest

regex = pytest.importorskip("regex")

#: SCRIPT-32's table, written out again: (first, last, weight).
HEAVY = [
    (0x0530, 0x058F, 2),
    (0x0980, 0x0DFF, 2),
    (0x0E80, 0x0EFF, 2),
    (0x0F00, 0x0FFF, 2),
    (0x1000, 0x109F, 2),
    (0x10A0, 0x10FF, 2),
    (0x1100, 0x11FF, 2),
    (0x1200, 0x139F, 3),
    (0x1780, 0x17FF, 2),
    (0x19E0, 0x19FF, 2),
    (0x1C90, 0x1CBF, 2),
    (0x2D00, 0x2D2F, 2),
    (0x2D80, 0x2DDF, 3),
    (0x3130, 0x318F, 2),
    (0xA960, 0xA97F, 2),
    (0xA9E0, 0xA9FF, 2),
    (0xAA60, 0xAA7F, 2),
    (0xAB00, 0xAB2F, 3),
    (0xAC00, 0xD7FF, 2),
    (0x10000, 0x10FFFF, 2),
]


def weight(ch: str) -> int:
    for first, last, w in HEAVY:
        if first <= ord(ch) <= last:
            return w
    return 1


def kind(ch: str) -> str:
    """The kind of an ASCII character: upper, lower, digit or other."""
    if "A" <= ch <= "Z":
        return "upper"
    if "a" <= ch <= "z":
        return "lower"
    if "0" <= ch <= "9":
        return "digit"
    return "other"


def ascii_pieces(heads: str) -> list[tuple[int, int, int]]:
    """SCRIPT-31 on a run of ASCII characters: (start, end, characters per unit)."""
    pieces = []
    i = 0
    while i < len(heads):
        k = kind(heads[i])
        if k == "digit":
            j = i
            while j < len(heads) and kind(heads[j]) == "digit":
                j += 1
            pieces.append((i, j, 3))
        elif k == "other":
            j = i + 1
            pieces.append((i, j, 1))
        elif k == "lower":
            j = i
            while j < len(heads) and kind(heads[j]) == "lower":
                j += 1
            pieces.append((i, j, 5))
        else:  # a capital, and the small letters after it
            j = i + 1
            while j < len(heads) and kind(heads[j]) == "lower":
                j += 1
            pieces.append((i, j, 5))
        i = j
    return pieces


def model_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        j = i
        while j < len(text) and not text[j].isspace():
            j += 1
        word_spans: list[tuple[int, int]] = []
        bounds = [i]
        for cluster in regex.findall(r"\X", text[i:j]):
            bounds.append(bounds[-1] + len(cluster))
        k = 0
        while k < len(bounds) - 1:
            if text[bounds[k]].isascii():
                m = k
                while m < len(bounds) - 1 and text[bounds[m]].isascii():
                    m += 1
                heads = "".join(text[bounds[x]] for x in range(k, m))
                for p, q, step in ascii_pieces(heads):
                    for x in range(p, q, step):
                        word_spans.append((bounds[k + x], bounds[k + min(q, x + step)]))
                k = m
            else:
                s, e = bounds[k], bounds[k + 1]
                for _ in range(sum(weight(ch) for ch in text[s:e])):
                    word_spans.append((s, e))
                k += 1
        gap = i
        while gap > 0 and text[gap - 1].isspace():
            gap -= 1
        if i > 0 and text[gap:i] != " ":  # SCRIPT-33
            word_spans.insert(0, word_spans[0])
        spans.extend(word_spans)
        i = j
    return spans

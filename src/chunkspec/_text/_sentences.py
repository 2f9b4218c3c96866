"""A sentence splitter that is linear on any input: one forward scan, no regular expression.

Seed 003 splits sentences "via pure-Python regex". A pattern such as
``[.!?]+["')]*(?=\\s)`` backtracks over every run of terminators from every start position,
which is quadratic on ``"!" * n`` (rule SENT-4). We scan once instead: each character is
looked at a bounded number of times.
"""

from __future__ import annotations

from collections.abc import Iterator

from .._core._validate import require_text

__all__ = ["sentence_ends", "sentence_spans", "split_sentences"]

#: Characters that end a sentence: SENT-1's, and Arabic, Urdu, Devanagari, Armenian and
#: Ethiopic full stops and question marks and the halfwidth ideographic full stop (SENT-5).
TERMINATORS = frozenset(".!?…‼⁇⁈⁉。！？\uff61\u061f\u06d4\u0964\u0965\u0589\u1362")

#: Terminators of scripts written without spaces: a run holding one ends a sentence even
#: when no whitespace follows (rule SENT-6).
WIDE_TERMINATORS = frozenset("。！？\uff61")

#: Characters that may follow the terminators and still belong to the sentence: SENT-1's
#: and the full-width and CJK closing brackets and quotes (SENT-5).
CLOSERS = frozenset(
    "\"')]}»”’›」』\uff09\uff3d\uff5d\uff02\uff07\uff63\u3009\u300b\u3011\u3015\u3017\u3019\u301b"
)


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Return the sentences of ``text[start:end]`` as ``(s, e)`` offsets into ``text``.

    Contract (rules SENT-1 to SENT-3, SENT-5, SENT-6): a sentence ends after a run of
    ``TERMINATORS`` and any ``CLOSERS`` that is followed by whitespace or the end, or
    whose terminators include one of ``WIDE_TERMINATORS``; every span is
    ``text[s:e] == text[s:e].strip() != ""``; spans are in order, disjoint, and together
    hold every non-whitespace character of ``text[start:end]``.
    """
    stop = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    begin = start
    for j in sentence_ends(text, start, stop):
        _emit(text, begin, j, spans)
        begin = j
    _emit(text, begin, stop, spans)
    return spans


def sentence_ends(text: str, start: int = 0, end: int | None = None) -> Iterator[int]:
    """Yield, in order, the offsets just past each sentence end of ``text[start:end]``.

    A sentence end is a maximal run of ``TERMINATORS`` and the maximal run of ``CLOSERS``
    after it, followed by whitespace or the end, or whose terminators include one of
    ``WIDE_TERMINATORS`` (SENT-1, SENT-5, SENT-6); one forward scan (SENT-4).
    """
    stop = len(text) if end is None else end
    i = start
    while i < stop:
        if text[i] in TERMINATORS:
            wide = text[i] in WIDE_TERMINATORS
            j = i + 1
            while j < stop and text[j] in TERMINATORS:
                wide = wide or text[j] in WIDE_TERMINATORS
                j += 1
            while j < stop and text[j] in CLOSERS:
                j += 1
            if wide or j == stop or text[j].isspace():
                yield j
            i = j
        else:
            i += 1


def _emit(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    """Append ``text[start:end]`` trimmed of whitespace to ``spans`` unless it is blank."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        spans.append((start, end))


def split_sentences(text: str) -> list[str]:
    """Return ``[text[s:e] for s, e in sentence_spans(text)]`` (rules SENT-1 to SENT-6)."""
    require_text("text", text)
    return [text[s:e] for s, e in sentence_spans(text)]

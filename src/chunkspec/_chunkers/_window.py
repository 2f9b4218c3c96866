"""Sliding windows over characters (seed 002, exact) and over tokens of any counter.

Seed 002::

    step = size - overlap
    while i < len(text):
        chunks.append(text[i:i + size])
        if i + size >= len(text):
            break          # this window already reached the end
        i += step

We keep that loop's meaning exactly (rules WIN-1 .. WIN-9 in docs/spec/windows.md) and
compute the windows from their count, so the result does not depend on a loop at all.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._core._validate import (
    one_byte_per_code_point,
    require_int,
    require_str,
    require_text,
    surrogate_check_encoding,
)
from .._counters._builtin import (
    CharEstimateCounter,
    TokenSpanCounter,
    UnicodeCounter,
    WhitespaceCounter,
    checked_starts,
)
from .._errors import ArgumentTypeError, ArgumentValueError
from ._cuts import Cuts, split_clusters
from ._span import Span

if TYPE_CHECKING:
    from .._text._documents import SourceDocument
    from ._options import ChunkOptions

__all__ = ["TokenWindow", "chunk", "token_windows", "window_count", "window_spans"]


def _check_size(size: object, overlap: object) -> tuple[int, int]:
    """Validate ``size >= 1`` and ``0 <= overlap < size`` (rules WIN-2, WIN-3)."""
    size = require_int("size", size, minimum=1)
    overlap = require_int("overlap", overlap, minimum=0)
    if overlap >= size:
        # Seed: "an overlap that big never advances".
        raise ArgumentValueError("overlap", f"must be < size ({size})", overlap)
    return size, overlap


def window_count(n: int, size: int, overlap: int) -> int:
    """Return how many windows cover ``n`` units: 0, else ``1 + ceil(max(0, n-size)/step)``.

    Window ``k`` covers ``[k*step, min(k*step + size, n))``; the last is the first one that
    reaches ``n`` (rule WIN-6: no trailing scrap).
    """
    if n == 0:
        return 0
    step = size - overlap
    return 1 + max(0, -(-(n - size) // step))


def chunk(text: str, size: int, overlap: int) -> list[str]:
    """Return ``[text[k*step : k*step + size] for k in range(window_count(...))]``.

    ``step == size - overlap``; the last window is the first that reaches the end of
    ``text``, so ``chunks[0] + "".join(c[overlap:] for c in chunks[1:]) == text`` (WIN-8).
    Positions are code points (Python ``str`` indices), not UTF-16 units (rule WIN-9).
    """
    text = require_str("text", text)
    # PORT-2: a four-byte string is checked for lone surrogates window by window, after
    # slicing (the windows cover it, WIN-8): encoding 2,000 characters at a time is half
    # the cost of encoding the whole text at once. Any other string is checked whole.
    wide = surrogate_check_encoding(text) == "utf-8" and not one_byte_per_code_point(text)
    if not wide:
        require_text("text", text)
    try:
        size, overlap = _check_size(size, overlap)
    except (ArgumentTypeError, ArgumentValueError):
        if wide:
            require_text("text", text)  # the text's error comes first, as ever
        raise
    step = size - overlap
    count = window_count(len(text), size, overlap)
    windows = [text[i : i + size] for i in range(0, count * step, step)]
    if wide:
        try:
            deque(map(str.encode, windows), maxlen=0)
        except UnicodeEncodeError:
            require_text("text", text)  # raises, naming the first lone surrogate
            raise
    return windows


@dataclass(frozen=True, slots=True)
class TokenWindow:
    """One window of ``token_windows``: ``text == source[start:end]`` (rule TOKWIN-4).

    It holds the document's tokens ``token_start .. token_end - 1`` (of the counter's
    tokenization of the whole source).
    """

    text: str
    index: int
    start: int
    end: int
    token_start: int
    token_end: int

    @property
    def embedding_text(self) -> str:
        """What an embedder should see: the window's text."""
        return self.text


def token_windows(
    text: str,
    size: int,
    overlap: int,
    counter: TokenSpanCounter | None = None,
) -> list[TokenWindow]:
    """Seed 002's window over the counter's tokens: window ``k`` holds tokens ``[k*step, ...)``.

    With ``spans = counter.token_spans(text)`` and ``N = len(spans)``, window ``k`` holds
    tokens ``[a, b) == [k*step, min(k*step + size, N))`` and covers the characters
    ``[start, end)`` with ``start = 0 if k == 0 else spans[a][0]`` and
    ``end = len(text) if b == N else spans[b][0]``: windows cut the source at token starts,
    so together they cover every character, gaps included (rules TOKWIN-1 .. TOKWIN-6).
    """
    text = require_text("text", text)
    size, overlap = _check_size(size, overlap)
    counter = WhitespaceCounter() if counter is None else counter
    starts = checked_starts(counter, text)
    n = len(starts)
    step = size - overlap
    windows: list[TokenWindow] = []
    for k in range(window_count(n, size, overlap)):
        a = k * step
        b = min(a + size, n)
        start = 0 if k == 0 else starts[a]
        end = len(text) if b == n else starts[b]
        windows.append(TokenWindow(text[start:end], k, start, end, a, b))
    return windows


def window_spans(document: SourceDocument, options: ChunkOptions) -> list[Span]:
    """The ``window`` strategy: token_windows over the text (``chars1``: :func:`chunk`).

    A Markdown document's front matter is not windowed: the windows start after it (FM-2).
    """
    body = document.body_start
    text = document.text[body:] if body else document.text
    counter = options.token_counter()
    size, overlap = options.max_tokens, options.overlap
    if isinstance(counter, CharEstimateCounter) and counter.chars_per_token == 1:
        step = size - overlap
        # COUNT-5: a window of n characters counts n chars1 tokens.
        return [
            Span(body + k * step, body + k * step + len(piece), "window", tokens=len(piece))
            for k, piece in enumerate(chunk(text, size, overlap))
        ]
    if type(counter) in (WhitespaceCounter, UnicodeCounter):
        windows = token_windows(text, size, overlap, counter)
        # COUNT-4, SCRIPT-3: a window cut at word or unit starts holds exactly its tokens.
        return [
            Span(body + w.start, body + w.end, "window", tokens=w.token_end - w.token_start)
            for w in windows
        ]
    return [
        Span(body + a, body + b, "window", tokens=count)
        for a, b, count in fitted_windows(text, size, overlap, counter)
    ]


def fitted_windows(
    text: str, size: int, overlap: int, counter: TokenSpanCounter
) -> list[tuple[int, int, int]]:
    """The ``window`` strategy's windows ``(start, end, count)`` (SCRIPT-10).

    TOKWIN-3's windows, but every edge is a cut of SCRIPT-10 (a token start outside any
    grapheme cluster) and a window whose text re-counts over ``size`` gives back one cut at a
    time (as PAGE-7); the next window starts at the last cut at or before ``end - overlap``
    and past the window's start. A window over ``size`` holds one cluster and nothing else.
    """
    starts = checked_starts(counter, text)
    n_tokens = len(starts)
    n = len(text)
    if n_tokens == 0:
        return []
    cuts = Cuts(text, starts, counter)  # SCRIPT-10: never inside a grapheme cluster
    starts = cuts.positions
    out: list[tuple[int, int, int]] = []
    s = 0
    while True:
        e = min(s + size, n_tokens)
        e = cuts.at_or_before(e, s + 1) or cuts.after(e)
        lo = 0 if s == 0 else starts[s]
        while True:
            hi = n if e == n_tokens else starts[e]
            count = counter.count(text[lo:hi])
            if count <= size:
                break
            smaller = cuts.at_or_before(e - 1, s + 1)
            if smaller is None:
                break
            e = smaller
        if count <= size:
            out.append((lo, hi, count))
        else:  # no cut inside: split at clusters; a piece over is one cluster
            out.extend(split_clusters(text, lo, hi, counter, size))
        if e == n_tokens:
            return out
        target = max(e - overlap, s + 1)
        s = cuts.at_or_before(target, s + 1) or cuts.after(target)

"""Literal, obviously correct models of each algorithm: slow on purpose, read like the seeds.

The fast code in ``src/`` is checked against these by the property suites.
"""

from __future__ import annotations

from collections.abc import Callable

# --- seed 000: split_section / assemble ----------------------------------------------------


# --- seeds 002 and 004: sliding windows, token windows, the page chunker --------------------


def model_chunk(text: str, size: int, overlap: int) -> list[str]:
    """Seed 002's loop, verbatim: step by ``size - overlap``, stop once a window reaches the end."""
    step = size - overlap
    chunks = []
    i = 0
    while i < len(text):
        chunks.append(text[i : i + size])
        if i + size >= len(text):
            break  # this window already reached the end
        i += step
    return chunks


def model_token_ranges(n_tokens: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """Seed 002's loop over token indices: the ``[a, b)`` token range of every window."""
    step = size - overlap
    ranges = []
    i = 0
    while i < n_tokens:
        ranges.append((i, min(i + size, n_tokens)))
        if i + size >= n_tokens:
            break
        i += step
    return ranges


def model_page_of(pages: list[str]) -> list[int | None]:
    """Return, for each character of ``"\\f".join(pages)``, its 1-based page (None: separator)."""
    owner: list[int | None] = []
    for number, page in enumerate(pages, start=1):
        if number > 1:
            owner.append(None)
        owner.extend([number] * len(page))
    return owner


def model_ends_sentence(text: str, cut: int) -> bool:
    """Whether the last non-space character before ``cut`` is ``.?!`` followed by whitespace."""
    i = cut - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return i >= 0 and text[i] in ".?!" and i + 1 < len(text) and text[i + 1].isspace()


def model_page_ranges(
    text: str,
    starts: list[int],
    count: Callable[[str], int],
    max_tokens: int,
    overlap: int,
) -> list[tuple[int, int, bool]]:
    """The page chunker written plainly: ``(char_start, char_end, oversized)`` of each chunk.

    ``starts`` are the token starts of ``text``. Each window is tokens ``[s, e)``; if it does
    not reach the end it moves back to the last sentence end in its final fifth (but past
    the overlap); it shrinks a token at a time while its stripped text counts over budget;
    the next window starts ``overlap`` tokens before its end, or one token after its start.
    """
    n_tokens = len(starts)
    out: list[tuple[int, int, bool]] = []

    def stripped(lo: int, hi: int) -> tuple[int, int] | None:
        while lo < hi and text[lo].isspace():
            lo += 1
        while hi > lo and text[hi - 1].isspace():
            hi -= 1
        return (lo, hi) if lo < hi else None

    if n_tokens == 0:
        r = stripped(0, len(text))
        if r is not None:
            out.append((r[0], r[1], count(text[r[0] : r[1]]) > max_tokens))
        return out
    s = 0
    while True:
        e = min(s + max_tokens, n_tokens)
        if e < n_tokens:
            lowest = max(s + (4 * max_tokens) // 5, s + overlap + 1)
            for j in range(e, lowest - 1, -1):
                if model_ends_sentence(text, starts[j]):
                    e = j
                    break
        oversized = False
        while True:
            lo = 0 if s == 0 else starts[s]
            hi = len(text) if e == n_tokens else starts[e]
            r = stripped(lo, hi)
            if r is None or count(text[r[0] : r[1]]) <= max_tokens:
                break
            if e - s == 1:
                oversized = True
                break
            e -= 1
        if r is not None and (not out or r[1] > out[-1][1]):
            out.append((r[0], r[1], oversized))
        if e == n_tokens:
            return out
        s = max(e - overlap, s + 1)


def model_best_section(
    sections: list[tuple[int, int, str]], a: int, b: int
) -> tuple[str | None, float]:
    """Count each section's characters in ``[a, b)`` one by one; the first largest wins."""
    best_label: str | None = None
    best = 0
    for start, end, label in sections:
        inside = sum(1 for i in range(a, b) if start <= i < end)
        if inside > best:
            best, best_label = inside, label
    return best_label, (best / (b - a) if best else 0.0)

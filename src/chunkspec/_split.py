"""Seed 000 ``split_section``: the recursive paragraph > line > word splitter.

The seed reads as a loop that re-counts the growing joined string after every piece, which
is quadratic. Because every separator is whitespace, joining two pieces never merges or splits
a word, so ``count_tokens(a + sep + b) == count_tokens(a) + count_tokens(b)`` (rule SPLIT-6).
We therefore count each piece once, take prefix sums, and find each chunk's last piece by
binary search: linear in the text, with only per-chunk work done in Python.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from itertools import accumulate, compress

from ._chunk import Chunk
from ._tokens import SEPARATORS
from ._validate import require_int, require_text

__all__ = ["split_section"]


def split_section(doc_id: str, title: str, text: str, max_tokens: int) -> list[Chunk]:
    """Split ``text`` into chunks of at most ``max_tokens`` whitespace-separated words.

    Contract (docs/spec.md, rules SPLIT-1 to SPLIT-12):

    * ``[w for c in chunks for w in c.text.split()] == text.split()``: no word is lost,
      split or reordered;
    * ``chunks[n].id == f"{doc_id}:{n}"``, ``chunks[n].text == chunks[n].text.strip()``,
      ``chunks[n].tokens == len(chunks[n].text.split())`` and
      ``chunks[n].content_hash == hash_text(chunks[n].text)``;
    * ``chunks[n].tokens <= max_tokens`` unless ``chunks[n].text`` contains none of
      ``SEPARATORS``;
    * blank ``text`` gives exactly one chunk, ``Chunk(f"{doc_id}:0", doc_id, title, "", 0, ...)``.

    Raises TypeError for a non-``str`` ``doc_id``, ``title`` or ``text`` or a non-``int``
    ``max_tokens``; ValueError for ``max_tokens < 1`` or ``> 2**53 - 1`` and for a string
    holding a lone surrogate (rules SPLIT-12, PORT-1, PORT-2).
    """
    require_text("doc_id", doc_id)
    require_text("title", title)
    require_text("text", text)
    require_int("max_tokens", max_tokens, minimum=1)
    parts: list[tuple[str, int]] = []
    _split(text, max_tokens, parts, oversized=False)
    return [
        Chunk(
            f"{doc_id}:{n}",
            doc_id,
            title,
            body,
            tokens,
            hashlib.sha256(body.encode("utf-8")).hexdigest(),
        )
        for n, (body, tokens) in enumerate(parts)
    ]


def _split(text: str, max_tokens: int, out: list[tuple[str, int]], *, oversized: bool) -> None:
    """Append ``(chunk_text, tokens)`` pairs for ``text`` to ``out``.

    ``oversized`` says the caller already knows ``text`` has more than ``max_tokens`` tokens.
    """
    # SPLIT-2: "split on the first separator in SEPARATORS that occurs in the text".
    for sep in SEPARATORS:
        if sep in text:
            break
    else:
        # SPLIT-5: no separator occurs, so the text is one unbreakable chunk, fitting or not.
        out.append((text.strip(), len(text.split())))
        return
    if _pieces_are_words(text, sep):
        # Every non-blank piece is exactly one word, so the kept pieces are text.split().
        kept = text.split()
        if len(kept) <= max_tokens and not oversized:
            out.append((text.strip(), len(kept)))
            return
        for i in range(0, len(kept), max_tokens):
            run = kept[i : i + max_tokens]
            out.append((sep.join(run), len(run)))
        return
    pieces = text.split(sep)
    counts = list(map(len, map(str.split, pieces)))
    if not oversized:
        total = sum(counts)
        if total <= max_tokens:
            # SPLIT-1: "If the whole text fits in max_tokens, it's one chunk."
            out.append((text.strip(), total))
            return
    # SPLIT-3: "Drop empty pieces (after strip())": a piece is blank iff it has 0 tokens.
    kept = list(compress(pieces, counts))
    prefix = list(accumulate(filter(None, counts), initial=0))
    # prefix[k] is the token count of kept[:k]; it strictly increases, so bisect finds the
    # longest run kept[i:j] whose joined text fits (SPLIT-4, SPLIT-6).
    i, n = 0, len(kept)
    while i < n:
        j = bisect_right(prefix, prefix[i] + max_tokens, i + 1) - 1
        if j == i:
            # SPLIT-7: "A single piece that is itself over max_tokens is split recursively",
            # its chunks take its place, and a fresh chunk starts after them (SPLIT-8).
            _split(kept[i], max_tokens, out, oversized=True)
            i += 1
        else:
            out.append((sep.join(kept[i:j]).strip(), prefix[j] - prefix[i]))
            i = j


_ASCII_WHITESPACE = " \n\t\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _pieces_are_words(text: str, sep: str) -> bool:
    """True if ``text.split(sep)``, blanks dropped, equals ``text.split()``.

    That holds when the only whitespace in ``text`` is the separator's character and every
    run of it splits into whole separators: then no piece holds whitespace, so each
    non-blank piece is one word. A speed path only (checked in C, no per-piece work); when
    it is False the general path gives the same chunks.
    """
    if not text.isascii():
        return False
    char = sep[0]
    if any(c in text for c in _ASCII_WHITESPACE if c != char):
        return False
    return len(sep) == 1 or text.count(char) == len(sep) * text.count(sep)

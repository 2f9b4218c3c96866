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
from ._validate import one_byte_per_code_point, require_int, require_text

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
    # SPLIT-2: "split on the first separator in SEPARATORS that occurs in the text"; a text
    # without "\n" holds no "\n\n" either, so one scan of one-line text is saved.
    if "\n" in text:
        sep = "\n\n" if "\n\n" in text else "\n"
    elif " " in text:
        sep = " "
    else:
        # SPLIT-5: no separator occurs, so the text is one unbreakable chunk, fitting or not.
        out.append((text.strip(), len(text.split())))
        return
    kept = _words_if_pieces_are_words(text, sep)
    if kept is not None:
        # Every non-blank piece is exactly one word, so the kept pieces are text.split().
        if len(kept) <= max_tokens and not oversized:
            out.append((text.strip(), len(kept)))
            return
        for i in range(0, len(kept), max_tokens):
            run = kept[i : i + max_tokens]
            out.append((sep.join(run), len(run)))
        return
    if sep == " ":
        # SPLIT-2, WS-1: every other kind of whitespace the text holds (a tab, a no-break
        # space, ...); when it is rare, the sparse path keeps the word-level speed. Narrow
        # text is searched for every WS-1 code point (cheap: a wider one returns at once);
        # wide text for the likely ones, and the sparse path checks that they were all.
        if one_byte_per_code_point(text):
            found = [char for char in _BY_LIKELIHOOD[1:] if char in text]
            result = _split_sparse(text, found, max_tokens, out, oversized=oversized, check=False)
        else:
            found = [char for char in _USUAL[1:] if char in text]
            result = _split_sparse(text, found, max_tokens, out, oversized=oversized, check=True)
            if result > 0:  # some rarer kind was missed: look for them all, and redo
                found += [char for char in _BY_LIKELIHOOD[len(_USUAL) :] if char in text]
                result = _split_sparse(
                    text, found, max_tokens, out, oversized=oversized, check=False
                )
        if result == 0:
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


#: The WS-1 code points (``str.isspace()``, exactly what ``str.split()`` splits on), the
#: ones real text holds first, so that a search for "any other whitespace" stops early.
_BY_LIKELIHOOD = (
    " \n\t\xa0\r\x0c\x0b\u3000\u2009\u202f\u2002\u2003\u2028\u2029\x85\x1c\x1d\x1e\x1f"
    "\u1680\u2000\u2001\u2004\u2005\u2006\u2007\u2008\u200a\u205f"
)

#: The WS-1 code points looked for first.
_LIKELY = _BY_LIKELIHOOD[:5]

#: The kinds looked for in wide one-line text before the sparse path checks for the rest:
#: the likely ones, form feeds and vertical tabs, and the spaces of CJK and of French and
#: numeric typography (U+3000, U+2009, U+202F).
_USUAL = _BY_LIKELIHOOD[:10]

#: How much of a wide text is looked at for a quick "no" before the words are split.
_PEEK = 4096

#: The sparse word-level path is taken when at most one character in this many is
#: whitespace other than the space (a tab, a no-break space, ...).
_SPARSE = 16


def _words_if_pieces_are_words(text: str, sep: str) -> list[str] | None:
    """``text.split()`` if it equals ``text.split(sep)`` with blanks dropped, else None.

    That holds when the only whitespace in ``text`` is the separator's character and every
    run of it splits into whole separators: then no piece holds whitespace, so each
    non-blank piece is one word. A speed path only (checked in C, no per-piece work); when
    it says None the general path gives the same chunks. Every WS-1 code point counts
    (``str.split()`` splits on exactly that set), whatever ``text.isascii()`` says.

    In narrow (one byte a code point) text each kind is looked for, which is cheap: a find
    stops at the first hit, and one for a wider code point returns at once. In wide text
    the likely kinds are looked for (in the first ``_PEEK`` characters only when the
    separator is a newline, where prose shows a space at once), then the words' lengths
    are summed: every other character is whitespace, and it is all whole separators iff it
    is ``len(sep) * text.count(sep)`` characters (``count`` finds disjoint occurrences).
    """
    char = sep[0]
    if one_byte_per_code_point(text):
        if any(c in text for c in _BY_LIKELIHOOD if c != char):
            return None
        if len(sep) == 1 or text.count(char) == len(sep) * text.count(sep):
            return text.split()
        return None
    window = text if sep == " " else text[:_PEEK]
    if any(c in window for c in _LIKELY if c != char):
        return None
    kept = text.split()
    if len(text) - sum(map(len, kept)) != len(sep) * text.count(sep):
        return None
    return kept


def _split_sparse(
    text: str,
    found: list[str],
    max_tokens: int,
    out: list[tuple[str, int]],
    *,
    oversized: bool,
    check: bool,
) -> int:
    """The general path for ``sep == " "`` when whitespace other than the space is rare.

    ``text`` holds no newline (it would have been the separator) and ``found`` lists the
    other WS-1 characters it holds (every one, unless ``check``). The pieces
    ``text.split(" ")`` are one word each except those holding a character of ``found``:
    each such "irregular" piece is located from its characters with ``find``, counted on
    its own and kept whole (or dropped when blank, SPLIT-3); the runs between them are split
    in C with ``str.split()``. Every regular piece counts 1 token, so the greedy packing
    (SPLIT-4, SPLIT-6) steps over runs of them and stops only at an irregular piece of 2 or
    more tokens.

    Returns 0 when done. Returns -1, appending nothing, when other whitespace is not rare
    (more than one character in ``_SPARSE``). With ``check``, if ``found`` missed a kind of
    whitespace between two regular words, the pieces do not account for every character
    but the spaces: nothing is appended, and the number of characters missed is returned.
    """
    positions = sorted(position for char in found for position in _positions(text, char))
    if len(positions) * _SPARSE > len(text):
        return -1
    kept: list[str] = []
    dropped = 0  # characters in blank pieces
    heavy: list[tuple[int, int]] = []  # (index in kept, tokens) of kept pieces of >= 2 tokens
    done = 0  # text[:done] is accounted for
    for position in positions:
        if position < done:
            continue  # inside the irregular piece just taken
        start = text.rfind(" ", done, position) + 1 or done
        end = text.find(" ", position)
        if end < 0:
            end = len(text)
        kept += text[done:start].split()
        piece = text[start:end]
        tokens = len(piece.split())
        if tokens:  # SPLIT-3: a blank piece is dropped
            if tokens > 1:
                heavy.append((len(kept), tokens))
            kept.append(piece)
        else:
            dropped += len(piece)
        done = end
    kept += text[done:].split()
    if check:
        missed = len(text) - sum(map(len, kept)) - dropped - text.count(" ")
        if missed:
            return missed
    n = len(kept)
    if not oversized:
        total = n + sum(tokens - 1 for _, tokens in heavy)
        if total <= max_tokens:
            out.append((text.strip(), total))  # SPLIT-1
            return 0
    heavy.append((n, 1))  # a sentinel past the end
    h = 0  # heavy[h] is the first irregular piece at or after i
    i = 0
    while i < n:
        at, tokens = heavy[h]
        if at == i and tokens > max_tokens:
            _split(kept[i], max_tokens, out, oversized=True)  # SPLIT-7, SPLIT-8
            i += 1
            h += 1
            continue
        j, used = i, 0
        while True:
            at, tokens = heavy[h]
            step = min(at - j, max_tokens - used)  # one-token pieces before the next heavy
            j += step
            used += step
            if j != at or at == n or used + tokens > max_tokens:
                break
            j += 1
            used += tokens
            h += 1
        out.append((" ".join(kept[i:j]).strip(), used))
        i = j
    return 0


def _positions(text: str, char: str) -> list[int]:
    """Every index of ``char`` in ``text``, found in C by ``str.find``."""
    found: list[int] = []
    position = text.find(char)
    while position >= 0:
        found.append(position)
        position = text.find(char, position + 1)
    return found

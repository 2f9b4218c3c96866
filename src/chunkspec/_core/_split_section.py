"""``split_section``: the recursive paragraph > line > word splitter (SPLIT rules).

Read literally, SPLIT-4 is a loop that re-counts the growing joined string after every
piece, which is quadratic. Because every separator is whitespace, joining two pieces never
merges or splits a word, so ``count_tokens(a + sep + b) == count_tokens(a) +
count_tokens(b)`` (rule SPLIT-6). We therefore count each piece once, take prefix sums, and
find each chunk's last piece by binary search: linear in the text, with only per-chunk work
done in Python.
"""

from __future__ import annotations

import dataclasses
import hashlib
from bisect import bisect_right
from itertools import accumulate, compress, repeat

from ._seed_chunk import Chunk
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

    Words are whitespace-separated (seed 000, normative): Chinese, Japanese or Thai text
    has no spaces, so a whole paragraph is one "word" and one chunk of 1 token, however
    long. For such text use ``chunk_document`` with ``heading``, ``structural``, ``window``
    or ``pages``, which count ``unicode`` units there (SCRIPT-6, SCRIPT-7).

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
    return _chunks(doc_id, title, parts)


#: Setters of ``Chunk``'s slots, in field order. ``Chunk`` is a frozen dataclass, whose
#: ``__init__`` sets each field through ``object.__setattr__``; setting the slots directly
#: builds the same object in a third of the time (the fields of rule SPLIT-9, nothing else).
_SETTERS = tuple(getattr(Chunk, field.name).__set__ for field in dataclasses.fields(Chunk))


def _chunks(doc_id: str, title: str, parts: list[tuple[str, int]]) -> list[Chunk]:
    """``[Chunk(f"{doc_id}:{n}", doc_id, title, body, tokens, sha256(body)) ...]``, fast."""
    set_id, set_doc_id, set_title, set_text, set_tokens, set_hash, set_score = _SETTERS
    new = object.__new__
    sha256 = hashlib.sha256
    chunks: list[Chunk] = []
    append = chunks.append
    for n, (body, tokens) in enumerate(parts):
        chunk = new(Chunk)
        set_id(chunk, f"{doc_id}:{n}")
        set_doc_id(chunk, doc_id)
        set_title(chunk, title)
        set_text(chunk, body)
        set_tokens(chunk, tokens)
        set_hash(chunk, sha256(body.encode("utf-8")).hexdigest())
        set_score(chunk, 0.0)
        append(chunk)
    return chunks


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
    if _split_words(text, sep, max_tokens, out, oversized=oversized):
        return
    if sep == " ":
        # SPLIT-2, WS-1: every other kind of whitespace the text holds (a tab, a no-break
        # space, ...); when it is rare, the sparse path keeps the word-level speed. Narrow
        # text is searched for every WS-1 code point below U+0100 (all it can hold); wide
        # text for the likely ones, and the sparse path checks that they were all.
        # Neither holds a newline (it would be the separator), so that scan is saved.
        if one_byte_per_code_point(text):
            found = list(filter(text.__contains__, _NARROW[2:]))
            result = _split_sparse(text, found, max_tokens, out, oversized=oversized, check=False)
        else:
            found = list(filter(text.__contains__, _USUAL[2:]))
            result = _split_sparse(text, found, max_tokens, out, oversized=oversized, check=True)
            if result > 0:  # some rarer kind was missed: look for them all, and redo
                found += filter(text.__contains__, _BY_LIKELIHOOD[len(_USUAL) :])
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

#: The WS-1 code points a one-byte (all below U+0100) text can hold, in the same order.
_NARROW = "".join(char for char in _BY_LIKELIHOOD if char <= "\xff")

#: For ``_split_words``: the kinds to look for given the ones allowed (the separator's
#: character; for the space, the newline too, which a space-separated text cannot hold),
#: searched by ``map`` in C.
_ALLOWED = ("\n", " \n")
_NARROW_OTHER = {allowed: tuple(c for c in _NARROW if c not in allowed) for allowed in _ALLOWED}
_LIKELY_OTHER = {allowed: tuple(c for c in _LIKELY if c not in allowed) for allowed in _ALLOWED}

#: The kinds looked for in wide one-line text before the sparse path checks for the rest:
#: the likely ones, form feeds and vertical tabs, and the spaces of CJK and of French and
#: numeric typography (U+3000, U+2009, U+202F).
_USUAL = _BY_LIKELIHOOD[:10]

#: How much of a wide text is looked at for a quick "no" before the words are split.
_PEEK = 4096

#: The sparse word-level path is taken when at most one character in this many is
#: whitespace other than the space (a tab, a no-break space, ...).
_SPARSE = 16


def _split_words(
    text: str, sep: str, max_tokens: int, out: list[tuple[str, int]], *, oversized: bool
) -> bool:
    """Chunk ``text`` as runs of ``max_tokens`` words if its pieces are words; say if it did.

    The pieces ``text.split(sep)`` with blanks dropped are ``text.split()`` when the only
    whitespace in ``text`` is the separator's character and every run of it splits into
    whole separators: then no piece holds whitespace, so each non-blank piece is one word,
    and the greedy packing (SPLIT-4, SPLIT-6) takes ``max_tokens`` of them at a time. A
    speed path only (checked in C, no per-piece work): when it returns False it has appended
    nothing and the general path gives the same chunks. Every WS-1 code point counts
    (``str.split()`` splits on exactly that set), whatever ``text.isascii()`` says.

    In narrow (one byte a code point) text each kind below U+0100 is looked for (all it can
    hold), which is cheap: a find stops at the first hit. In wide text
    the likely kinds are looked for (in the first ``_PEEK`` characters only when the
    separator is a newline, where prose shows a space at once), then the words' lengths
    account for the rest: every other character is whitespace, and it is all whole
    separators iff it is ``len(sep) * text.count(sep)`` characters (``count`` finds disjoint
    occurrences). The lengths are read off the joined chunks (each is its words and
    ``len(sep)`` per join), so the check costs no pass of its own; when it fails, the chunks
    appended are taken back.
    """
    char = sep[0]
    # The separator's own character is allowed; a space-separated text holds no newline
    # (it would have been the separator), so that scan is saved too.
    allowed = " \n" if sep == " " else char
    narrow = one_byte_per_code_point(text)
    if narrow:
        if any(map(text.__contains__, _NARROW_OTHER[allowed])):
            return False
        if len(sep) > 1 and text.count(char) != len(sep) * text.count(sep):
            return False
    else:
        window = text if sep == " " else text[:_PEEK]
        if any(map(window.__contains__, _LIKELY_OTHER[allowed])):
            return False
    # The text is read a block of about _BLOCK characters at a time, each cut at an
    # occurrence of the separator (whitespace: no word is cut), and the words of each full
    # chunk are freed once it is joined: the allocator then reuses their memory rather
    # than mapping fresh pages for all the text's words at once.
    mark = len(out)
    joined = 0  # characters of the chunks appended, separators included
    n = 0  # words
    carry: list[str] = []  # words read but not yet in a chunk (fewer than max_tokens)
    size = len(text)
    start = 0
    while start < size:
        end = text.find(sep, start + _BLOCK) if start + _BLOCK < size else -1
        if end < 0:
            end = size
        words = text[start:end].split() if start or end < size else text.split()
        n += len(words)
        if carry:
            carry += words  # amortized: a chunk bigger than the blocks grows in place
            words = carry
        full = len(words) - len(words) % max_tokens
        for i in range(0, full, max_tokens):
            body = sep.join(words[i : i + max_tokens])
            joined += len(body)
            out.append((body, max_tokens))
        carry = words[full:] if full else words
        start = end
    if carry:
        body = sep.join(carry)
        joined += len(body)
        out.append((body, len(carry)))
    # joined - len(sep) * (n - chunks) is the words' total length
    chunks = len(out) - mark
    if not narrow and len(text) - joined + len(sep) * (n - chunks) != len(sep) * text.count(sep):
        del out[mark:]
        return False
    if n <= max_tokens and not oversized:
        del out[mark:]  # at most one chunk, of all the words
        out.append((text.strip(), n))  # SPLIT-1
    return True


#: About how many characters ``_split_words`` splits into words at a time.
_BLOCK = 1 << 16


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
    each such "irregular" piece reaches from the space before one of its characters to the
    space after (both found in C by ``rfind``/``find`` over all of them at once), is counted
    on its own and kept whole (or dropped when blank, SPLIT-3); the runs between them are
    split in C with ``str.split()``. Every regular piece counts 1 token, so the greedy
    packing (SPLIT-4, SPLIT-6) steps over runs of them and stops only at an irregular piece
    of 2 or more tokens.

    Returns 0 when done. Returns -1, appending nothing, when other whitespace is not rare
    (more than one character in ``_SPARSE``). With ``check``, if ``found`` missed a kind of
    whitespace between two regular words, the pieces do not account for every character
    but the spaces: the chunks appended are taken back, and 1 is returned. The pieces'
    lengths are read off the joined chunks, so the check costs no pass of its own.
    """
    positions = sorted(position for char in found for position in _positions(text, char))
    if len(positions) * _SPARSE > len(text):
        return -1
    size = len(text)
    # The irregular piece around each position: from after the space before it to the space
    # after it (or the text's ends); positions in one piece give the same bounds.
    starts = list(map(_ONE.__add__, map(text.rfind, repeat(" "), repeat(0), positions)))
    ends = list(map(text.find, repeat(" "), positions))
    last = len(ends)
    while last and ends[last - 1] < 0:  # no space after: the piece ends the text
        last -= 1
        ends[last] = size
    bounds = list(dict.fromkeys(zip(starts, ends, strict=True)))
    starts = [start for start, _ in bounds]
    ends = [end for _, end in bounds]
    irregular = list(map(text.__getitem__, map(slice, starts, ends)))
    counts = list(map(len, map(str.split, irregular)))
    # The runs of regular pieces before, between and after them, split into words in C.
    # The runs are split lazily and the chunks packed every _FLUSH pieces, the words of
    # each chunk freed once it is joined: a few thousand words are alive at a time, not
    # the text's, so the allocator reuses their memory rather than mapping fresh pages.
    runs = map(str.split, map(text.__getitem__, map(slice, [0, *ends], [*starts, size])))
    mark = len(out)
    kept: list[str] = []  # the pieces not yet in a chunk
    heavy: list[tuple[int, int]] = []  # (index in kept, tokens) of kept pieces of >= 2 tokens
    dropped = 0  # characters in blank pieces
    total = 0  # tokens of all the pieces
    length = 0  # characters of the pieces in chunks, read off the chunks
    # Packed when this many pieces wait; when a packing leaves many waiting (a chunk far
    # bigger than _FLUSH pieces), not before their number doubles: linear either way.
    flush = _FLUSH
    # runs has one more than irregular: zip takes from irregular first and stops there,
    # leaving the last run to the line after the loop.
    for piece, tokens, words in zip(irregular, counts, runs, strict=False):
        kept += words
        total += len(words) + tokens
        if tokens:  # SPLIT-3: a blank piece is dropped
            if tokens > 1:
                heavy.append((len(kept), tokens))
            kept.append(piece)
        else:
            dropped += len(piece)
        if len(kept) >= flush:
            done, packed = _pack(kept, heavy, max_tokens, out, final=False)
            length += packed
            del kept[:done]
            heavy = [(at - done, tokens) for at, tokens in heavy if at >= done]
            flush = max(_FLUSH, 2 * len(kept))
    words = next(runs)
    kept += words
    total += len(words)
    # With ``check``: the kept pieces and the blank ones must account for every character
    # but the spaces, ``size - dropped - spaces`` characters.
    expected = size - dropped - text.count(" ") if check else 0
    if not oversized and total <= max_tokens:
        del out[mark:]  # a chunk of exactly max_tokens may have been packed
        if check and length + sum(map(len, kept)) != expected:
            return 1
        out.append((text.strip(), total))  # SPLIT-1
        return 0
    _, packed = _pack(kept, heavy, max_tokens, out, final=True)
    if check and length + packed != expected:
        del out[mark:]
        return 1
    return 0


#: The sparse path packs the pieces read so far into chunks whenever this many are waiting.
_FLUSH = 1 << 13


def _pack(
    kept: list[str],
    heavy: list[tuple[int, int]],
    max_tokens: int,
    out: list[tuple[str, int]],
    *,
    final: bool,
) -> tuple[int, int]:
    """Append the chunks of ``kept`` (pieces of one token each but those in ``heavy``) to
    ``out``, greedily (SPLIT-4, SPLIT-6); return how many pieces they took and their
    characters. Unless ``final`` the last chunk is left out when more pieces could still
    join it (it ends with ``kept`` and has room): the caller packs it again with them."""
    n = len(kept)
    heavy = [*heavy, (n, 1)]  # a sentinel past the end
    length = 0
    h = 0  # heavy[h] is the first irregular piece at or after i
    i = 0
    while i < n:
        at, tokens = heavy[h]
        if at == i and tokens > max_tokens:
            length += len(kept[i])
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
        if j == n and used < max_tokens and not final:
            break
        body = " ".join(kept[i:j])
        length += len(body) - (j - i - 1)
        out.append((body.strip(), used))
        i = j
    return i, length


#: Adds one (``rfind``'s -1 for "no space before" becomes index 0).
_ONE = 1


def _positions(text: str, char: str) -> list[int]:
    """Every index of ``char`` in ``text``, found in C by ``str.find``."""
    found: list[int] = []
    position = text.find(char)
    while position >= 0:
        found.append(position)
        position = text.find(char, position + 1)
    return found

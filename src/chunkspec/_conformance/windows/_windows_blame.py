"""Blame models for ``token_windows``, ``chunk_pages`` and ``split_sentences`` (CONF-9).

Each model is the op written out literally, with one classic porting mistake swappable;
``_conformance._blame`` compares the port's answer with each model's and, on a match, blames
the rules the mistake breaks. Models marked JavaScript or UTF-16 replay a hazard (HAZ-14, HAZ-15).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ..._core._tokens import WHITESPACE
from ..._core._units import has_cluster_script, unit_spans
from ..._records._key import keyed_rows
from ..._text._sentences import CLOSERS, TERMINATORS, WIDE_TERMINATORS
from .._js_space import JS_SPACE
from ..records._record_object import record_object

__all__ = ["error_rules", "field_rules", "window_traps"]

_LONE = re.compile("[\ud800-\udfff]")
#: Two line breaks with only other whitespace between them: a blank line.
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")

Space = Callable[[str], bool]


def _py_space(ch: str) -> bool:
    """Python's ``str.isspace`` set (WS-1)."""
    return ch in WHITESPACE


def _js_space(ch: str) -> bool:
    """JavaScript's ``/\\s/``."""
    return ch in JS_SPACE  # HAZ-1


def _strip(text: str, space: Space) -> str:
    """``text`` without leading and trailing characters of ``space``."""
    a, b = 0, len(text)
    while a < b and space(text[a]):
        a += 1
    while b > a and space(text[b - 1]):
        b -= 1
    return text[a:b]


# -- split_sentences --------------------------------------------------------------------


def _sentences(
    text: str,
    *,
    space: Space = _py_space,
    strip: Space | None = _py_space,
    terminators: frozenset[str] = TERMINATORS,
    closers: frozenset[str] = CLOSERS,
    anywhere: bool = False,
    abbreviations: frozenset[str] = frozenset(),
    keep_blank: bool = False,
    line_ends: bool = False,
) -> list[str]:
    """SENT-1..SENT-3, SENT-5, SENT-6 literally: the spans' texts, one step swappable."""
    out: list[str] = []

    def emit(piece: str) -> None:
        kept = piece if strip is None else _strip(piece, strip)
        if kept or (keep_blank and not out):
            out.append(kept)

    i = begin = 0
    while i < len(text):
        if text[i] in terminators:
            j = i + 1
            while j < len(text) and text[j] in terminators:
                j += 1
            wide = any(text[k] in WIDE_TERMINATORS for k in range(i, j))  # SENT-6
            while j < len(text) and text[j] in closers:
                j += 1
            if j == len(text) or space(text[j]) or anywhere or wide:
                k = j
                while k > begin and not space(text[k - 1]):
                    k -= 1
                if text[k:j] not in abbreviations:
                    emit(text[begin:j])
                    begin = j
            i = j
        elif line_ends and text[i] == "\n":
            emit(text[begin:i])
            begin = i = i + 1
        else:
            i += 1
    emit(text[begin:])
    return out


_SENTENCE_TRAPS: list[tuple[str, list[str], dict[str, Any]]] = [
    (
        "ends and strips sentences at JavaScript's /\\s/",
        ["SENT-1", "WS-1"],
        {"space": _js_space, "strip": _js_space},
    ),
    ("strips sentences with JavaScript trim()", ["SENT-2", "WS-1"], {"strip": _js_space}),
    (
        "ends sentences only at the ASCII [.!?]",
        ["SENT-1"],
        {"terminators": frozenset(".!?")},
    ),
    (
        "keeps only the ASCII closers [\"')]",
        ["SENT-1"],
        {"closers": frozenset("\"')")},
    ),
    ("ends a sentence at a terminator with no whitespace after it", ["SENT-1"], {"anywhere": True}),
    (
        "does not end a sentence after an abbreviation",
        ["SENT-3"],
        {"abbreviations": frozenset({"e.g.", "i.e.", "Mr.", "Dr.", "etc.", "vs."})},
    ),
    ("does not strip the sentences", ["SENT-2"], {"strip": None}),
    ("gives one empty sentence for a blank text", ["SENT-2"], {"keep_blank": True}),
    ("ends a sentence at a line break", ["SENT-1"], {"line_ends": True}),
]


# -- records ----------------------------------------------------------------------------


def _units(text: str) -> list[str]:
    """``text`` as UTF-16 code units (what JavaScript indexes)."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [chr(int.from_bytes(data[k : k + 2], "little")) for k in range(0, len(data), 2)]


def _join(units: list[str]) -> str:
    """Code units (or code points) back to a string, surrogate pairs recombined."""
    return "".join(units).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _record(
    data: dict[str, Any], k: int, text: str, span: tuple[int, int], **fields: Any
) -> dict[str, Any]:
    """A chunk record (RECORD-1) with the whitespace counter."""
    return record_object(
        data["doc_id"],
        k,
        text,
        span,
        title=data["title"],
        strategy=fields["strategy"],
        counter=fields.get("counter", "whitespace"),
        tokens=fields.get("tokens", len(text.split())),
        pages=fields.get("pages", (None, None)),
        oversized=fields.get("oversized", False),
    )


def _tokens(points: list[str], space: Space) -> tuple[list[int], list[int]]:
    """The starts and ends of the maximal runs of non-``space`` characters (COUNT-4)."""
    starts: list[int] = []
    ends: list[int] = []
    for i, ch in enumerate(points):
        blank = space(ch)
        if not blank and (i == 0 or space(points[i - 1])):
            starts.append(i)
        if not blank and (i + 1 == len(points) or space(points[i + 1])):
            ends.append(i + 1)
    return starts, ends


def _unit_tokens(text: str, utf16: bool) -> tuple[list[int], list[int]]:
    """SCRIPT-3's units of ``text`` (SCRIPT-6: the default on a script without spaces), as
    code-point offsets, or UTF-16 offsets for the UTF-16 mistake."""
    spans = unit_spans(text)
    if utf16:
        at = [0]
        for ch in text:
            at.append(at[-1] + (2 if ord(ch) > 0xFFFF else 1))
        spans = [(at[a], at[b]) for a, b in spans]
    return [a for a, _ in spans], [b for _, b in spans]


def _count(text: str, unicode: bool) -> int:
    """The record's tokens: unicode units or whitespace words (SCRIPT-6)."""
    return len(unit_spans(text)) if unicode else len(text.split())


def _token_windows(
    data: dict[str, Any],
    *,
    utf16: bool = False,
    space: Space = _py_space,
    overlap_chars: bool = False,
    scrap: bool = False,
    first_at_token: bool = False,
    cut_at_token_end: bool = False,
    nominal: bool = False,
) -> list[dict[str, Any]]:
    """TOKWIN-3..TOKWIN-5 as records, literally, with one mistake swappable."""
    text, size, overlap = data["text"], data["max_tokens"], data["overlap_tokens"]
    if not text.strip():
        return []  # SOURCE-7
    points = _units(text) if utf16 else list(text)
    unicode = has_cluster_script(text)
    starts, ends = _unit_tokens(text, utf16) if unicode else _tokens(points, space)
    n = len(starts)
    strategy = f"window:max_tokens={size},overlap_tokens={overlap}"
    out: list[dict[str, Any]] = []
    a = 0
    while a < n:
        b = min(a + size, n)
        k = len(out)
        start = 0 if k == 0 else starts[a]
        if first_at_token and k == 0:
            start = starts[0]
        end = len(points) if b == n else starts[b]
        if cut_at_token_end:
            end = ends[b - 1]
        piece = _join(points[start:end])
        tokens = size if nominal else _count(piece, unicode)
        out.append(
            _record(
                data,
                k,
                piece,
                (start, end),
                tokens=tokens,
                strategy=strategy,
                counter="unicode" if unicode else "whitespace",
                oversized=tokens > size,
            )
        )
        if b >= n and not scrap:
            break
        if overlap_chars:
            nxt = a + 1
            while nxt < n and starts[nxt] < end - overlap:
                nxt += 1
            a = nxt
        else:
            a += size - overlap
    return keyed_rows(out)


_TOKWIN_TRAPS: list[tuple[str, list[str], dict[str, Any]]] = [
    ("gives offsets in UTF-16 code units", ["WIN-9", "TOKWIN-4"], {"utf16": True}),
    ("splits tokens at JavaScript's /\\s/", ["COUNT-4", "WS-1"], {"space": _js_space}),
    (
        "counts the overlap in characters back from the cut, not in tokens",
        ["TOKWIN-6"],
        {"overlap_chars": True},
    ),
    ("keeps stepping after a window reached the last token", ["TOKWIN-3"], {"scrap": True}),
    (
        "starts the first window at its first token, not at 0",
        ["TOKWIN-4"],
        {"first_at_token": True},
    ),
    (
        "ends a window where its last token ends, not at the next token's start",
        ["TOKWIN-5"],
        {"cut_at_token_end": True},
    ),
    ("gives max_tokens as each record's tokens", ["RECORD-14"], {"nominal": True}),
]


def _page_chunks(
    data: dict[str, Any],
    *,
    utf16: bool = False,
    js_trim: bool = False,
    end_inclusive: bool = False,
    start_page_only: bool = False,
    from_zero: bool = False,
    no_break: bool = False,
    first_break: bool = False,
    js_mark: bool = False,
    overlap_chars: bool = False,
    blank_record: bool = False,
    oversized_ge: bool = False,
    ascii_marks: bool = False,
    wide_needs_space: bool = False,
    blank_line: bool = False,
    shift_overlap: bool = False,
) -> list[dict[str, Any]]:
    """PAGE-2..PAGE-11 as records (whitespace counter), literally, one mistake swappable."""
    pages: list[str] = data["pages"]
    size = data.get("max_tokens", 400)
    overlap = data.get("overlap_tokens")
    if overlap is None:
        overlap = _int32(size) >> 2 if shift_overlap else size // 4
    full = "\f".join(pages)
    blank = not full.strip()
    if blank and not blank_record:
        return []  # SOURCE-7
    points = _units(full) if utf16 else list(full)
    trim_space = _js_space if js_trim else _py_space
    ranges: list[tuple[int, int]] = []
    unicode = has_cluster_script(full)
    if blank:
        ranges = [(0, len(points))]
    else:
        starts, ends = _unit_tokens(full, utf16) if unicode else _tokens(points, _py_space)
        n = len(starts)

        def sentence_end(j: int) -> bool:
            # PAGE-9: only whitespace between a sentence end (SENT-1, SENT-5, SENT-6) and
            # token j: a maximal run of terminators, the maximal run of closers after it,
            # then whitespace, or a wide terminator in the run.
            q = starts[j]
            if blank_line and _BLANK_LINE.search("".join(points[ends[j - 1] : q])):
                return True
            p = q
            while p > 0 and _py_space(points[p - 1]):
                p -= 1
            if ascii_marks:
                return p < q and points[p - 1] in ".?!"
            if p < len(points) and (points[p] in TERMINATORS or points[p] in CLOSERS):
                return False
            c = p
            while c > 0 and points[c - 1] in CLOSERS:
                c -= 1
            t = c
            while t > 0 and points[t - 1] in TERMINATORS:
                t -= 1
            wide = not wide_needs_space and any(ch in WIDE_TERMINATORS for ch in points[t:c])
            if js_mark and p < q and not _js_space(points[p]):
                return False
            return t < c and (wide or p == len(points) or _py_space(points[p]))

        s = 0
        while True:
            e = min(s + size, n)
            if e < n and not no_break:
                floor = max(s + 4 * size // 5, s + overlap + 1)
                zone = range(floor, e + 1) if first_break else range(e, floor - 1, -1)
                e = next((j for j in zone if sentence_end(j)), e)
            lo = 0 if s == 0 else starts[s]
            hi = len(points) if e == n else starts[e]
            a, b = lo, hi
            while a < b and trim_space(points[a]):
                a += 1
            while b > a and trim_space(points[b - 1]):
                b -= 1
            if a < b and (not ranges or b > ranges[-1][1]):
                ranges.append((a, b))
            if e == n:
                break
            if overlap_chars:
                nxt = s + 1
                while nxt < n and starts[nxt] < hi - overlap:
                    nxt += 1
                s = max(nxt, s + 1)
            else:
                s = max(e - overlap, s + 1)
    page_starts, position = [], 0
    for page in pages:
        page_starts.append(position)
        position += len(_units(page) if utf16 else page) + 1

    def page_of(offset: int) -> int:
        k = sum(1 for p in page_starts[1:] if p <= offset)
        return k if from_zero else k + 1

    strategy = f"pages:max_tokens={size},overlap_tokens={overlap}"
    out = []
    for k, (a, b) in enumerate(ranges):
        text = _join(points[a:b])
        tokens = _count(text, unicode)
        first = page_of(a)
        last = page_of(b + 1) if end_inclusive else page_of(max(a, b - 1))
        if start_page_only:
            last = first
        over = tokens >= size if oversized_ge else tokens > size
        out.append(
            _record(
                data,
                k,
                text,
                (a, b),
                pages=(first, last),
                oversized=over,
                strategy=strategy,
                tokens=tokens,
                counter="unicode" if unicode else "whitespace",
            )
        )
    return keyed_rows(out)


_PAGE_TRAPS: list[tuple[str, list[str], dict[str, Any]]] = [
    ("gives offsets in UTF-16 code units", ["PAGE-6", "WIN-9"], {"utf16": True}),
    ("strips chunks with JavaScript trim()", ["PAGE-5", "WS-1"], {"js_trim": True}),
    (
        "gives the next page as page_end when a chunk ends where its page ends (<= for <)",
        ["PAGE-11"],
        {"end_inclusive": True},
    ),
    ("gives page_start as page_end (the start page only)", ["PAGE-11"], {"start_page_only": True}),
    ("numbers pages from 0", ["PAGE-11"], {"from_zero": True}),
    ("never ends a window at a sentence end", ["PAGE-9"], {"no_break": True}),
    (
        "ends a window at the first sentence end in the zone, not the last",
        ["PAGE-9"],
        {"first_break": True},
    ),
    (
        "takes a sentence mark only when JavaScript's /\\s/ follows it",
        ["PAGE-9", "WS-1"],
        {"js_mark": True},
    ),
    (
        "backs up the overlap in characters from the cut, not in tokens",
        ["PAGE-10"],
        {"overlap_chars": True},
    ),
    ("gives a record for a blank document", ["SOURCE-7", "PAGE-5"], {"blank_record": True}),
    ("flags oversized at tokens >= max_tokens", ["RECORD-14"], {"oversized_ge": True}),
    (
        "takes only seed 004's marks . ? ! right before whitespace for a sentence end",
        ["PAGE-9"],
        {"ascii_marks": True},
    ),
    (
        "ends a sentence at 。！？｡ only before whitespace (SENT-6 ignored)",
        ["PAGE-9"],
        {"wide_needs_space": True},
    ),
    ("takes a blank line for a sentence end", ["PAGE-9"], {"blank_line": True}),
    (
        "computes the default overlap as max_tokens >> 2 (JavaScript's 32-bit shift)",
        ["RECORD-13"],
        {"shift_overlap": True},
    ),
]


def _int32(value: int) -> int:
    """JavaScript's ToInt32 (what ``>>`` does to its left operand first)."""
    return ((value & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000


def window_traps(op: str, data: dict[str, Any]) -> Iterator[tuple[str, list[str], Any]]:
    """Yield ``(mistake, rules, the answer a port with that mistake gives)`` for ``op``."""
    if op == "split_sentences":
        for mistake, rules, options in _SENTENCE_TRAPS:
            yield mistake, rules, _sentences(data["text"], **options)
    elif op == "token_windows":
        for mistake, rules, options in _TOKWIN_TRAPS:
            yield mistake, rules, _token_windows(data, **options)
    elif op == "chunk_pages":
        for mistake, rules, options in _PAGE_TRAPS:
            yield mistake, rules, _page_chunks(data, **options)


def error_rules(op: str, argument: str, value: Any) -> list[str]:
    """The rules about the argument an error of ``op`` names (or should name)."""
    if op == "split_sentences":
        return ["SENT-2"]
    if op == "token_windows":
        extra = {"max_tokens": ["WIN-2"], "overlap_tokens": ["WIN-3"]}.get(argument, [])
        return ["TOKWIN-1", *extra]
    if argument.startswith("pages[") and isinstance(value, str):
        if "\f" in value:
            return ["PAGE-1", "PAGE-2"]
        if lone_surrogate(value):
            return ["PAGE-1", "PORT-2"]
    return ["PAGE-1"]


#: The rules a differing record field alone pins down.
_RECORD_FIELDS = {
    "tokens": ["RECORD-14"],
    "content_hash": ["RECORD-2"],
    "strategy": ["RECORD-6"],
    "metadata": ["META-4"],
    "counter": ["RECORD-5"],
    "kind": ["RECORD-4"],
    "id": ["RECORD-2"],
    "index": ["RECORD-2"],
    "doc_id": ["RECORD-1"],
    "title": ["RECORD-1"],
    "oversized": ["RECORD-14"],
}


def field_rules(op: str, leaf: str) -> list[str]:
    """The rules a differing field alone pins down for ``op``; [] when it does not."""
    if op == "token_windows":
        return {**_RECORD_FIELDS, "start": ["TOKWIN-4"], "end": ["TOKWIN-4"]}.get(leaf, [])
    if op == "chunk_pages":
        pages = {"page_start": ["PAGE-11"], "page_end": ["PAGE-11"]}
        return {**_RECORD_FIELDS, **pages, "start": ["PAGE-6"], "end": ["PAGE-6"]}.get(leaf, [])
    return []


def lone_surrogate(value: Any) -> bool:
    """True for a string holding a lone surrogate."""
    return isinstance(value, str) and _LONE.search(value) is not None

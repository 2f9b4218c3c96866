"""Blame by rule: checks of the rules' own statements on an answer (CONF-9).

When no model of a known mistake gives a port's wrong answer, the kit checks the answer
against what the rules themselves say (RECORD-3's equation, PAGE-9's zone, MD-2's line
breaks, HEAD-4's parent links, RECORD-13's default overlap, ...) and blames the rules whose
check fails on the port's answer and holds on the reference's. Each check returns True when
the rule holds on the answer (or does not apply), False when the answer breaks it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from .._core._tokens import WHITESPACE
from .._core._units import unit_spans
from .._records._key import keyed_rows
from .._text._sentences import sentence_ends
from ._js_space import JS_SPACE
from .code._code_blame import CODE_CHECKS
from .html._html_blame import HTML_CHECKS
from .packing._checks import CHECKS as PACK_CHECKS

__all__ = ["broken_rules"]

Check = Callable[[dict[str, Any], Any], bool]

_RECORD_OPS = ("chunk", "token_windows", "chunk_pages", "split_markdown", "heading_aware")


def _source(data: dict[str, Any]) -> str:
    """The document text the records index: ``text``, or the pages joined (PAGE-2)."""
    pages = data.get("pages")
    if isinstance(pages, list):
        return "\f".join(str(p) for p in pages)
    return str(data.get("text", ""))


def _records(answer: Any) -> list[dict[str, Any]] | None:
    """The answer's records, or None when it is not a list of objects."""
    if isinstance(answer, list) and all(isinstance(r, dict) for r in answer):
        return answer
    return None


def _int(value: Any) -> bool:
    """An int that is not a bool."""
    return type(value) is int


def _equation(data: dict[str, Any], answer: Any) -> bool:
    """RECORD-3: ``text == prefix + source[start:end]`` (code points) for every record."""
    records = _records(answer)
    if records is None:
        return True
    source = _source(data)
    for r in records:
        start, end = r.get("start"), r.get("end")
        if not (_int(start) and _int(end)):
            return False
        if r.get("text") != str(r.get("prefix", "")) + source[start:end]:
            return False
    return True


def _line_breaks(data: dict[str, Any], answer: Any) -> bool:
    """MD-2: line breaks are kept as the source has them: a record text holding a line
    break is, after its prefix, a region of the source, CR and all."""
    records = _records(answer)
    source = _source(data)
    if records is None or "\r" not in source:
        return True
    for r in records:
        text = str(r.get("text", ""))[len(str(r.get("prefix", ""))) :]
        if ("\n" in text or "\r" in text) and text not in source:
            return False
    return True


def _ids(data: dict[str, Any], answer: Any) -> bool:
    """RECORD-2: ``id == doc_id:index``, ``index`` is the position, ``content_hash`` is the
    text's SHA-256."""
    records = _records(answer)
    if records is None:
        return True
    for k, r in enumerate(records):
        if r.get("index") != k or r.get("id") != f"{data.get('doc_id')}:{k}":
            return False
        text = r.get("text")
        if not isinstance(text, str):
            return False
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        if r.get("content_hash") != digest:
            return False
    return True


def _count(op: str, counter: Any, text: str) -> int | None:
    """The record's own counter's count of ``text`` (RECORD-5, RECORD-14): chars1 for
    ``chunk``; for the other ops ``whitespace`` words (COUNT-4) or ``unicode`` units, the
    name SCRIPT-6 gives ``whitespace`` on a document holding a SCRIPT-2 character. None
    for a counter name the op never writes (RECORD-5's matter, not RECORD-14's)."""
    if op == "chunk":
        return len(text) if counter == "chars1" else None
    if counter == "whitespace":
        return len(text.split())
    if counter == "unicode":
        return len(unit_spans(text))
    return None


def _tokens(op: str) -> Check:
    """RECORD-14: ``tokens`` is the count of the text by the counter the record names
    (SCRIPT-6: ``unicode`` on a document holding a SCRIPT-2 character); ``oversized`` is
    ``tokens > max_tokens``."""

    def check(data: dict[str, Any], answer: Any) -> bool:
        records = _records(answer)
        if records is None:
            return True
        size = data.get("max_tokens", 400)
        for r in records:
            text = r.get("text")
            if not isinstance(text, str):
                return False
            count = _count(op, r.get("counter"), text)
            if count is None:
                continue  # a counter name the op does not write: RECORD-5's matter
            if r.get("tokens") != count:
                return False
            if _int(size) and r.get("oversized") is not (r["tokens"] > size):
                return False
        return True

    return check


def _default_overlap(data: dict[str, Any], answer: Any) -> bool:
    """RECORD-13: with no ``overlap_tokens``, ``chunk_pages`` overlaps ``max_tokens // 4``
    (each record's strategy names it, RECORD-6)."""
    records = _records(answer)
    size = data.get("max_tokens", 400)
    if records is None or data.get("overlap_tokens") is not None or not _int(size):
        return True
    want = f"pages:max_tokens={size},overlap_tokens={size // 4}"
    return all(r.get("strategy") == want for r in records)


def _token_spans(text: str, counter: Any) -> list[tuple[int, int]] | None:
    """The counter's tokens of ``text``: ``unicode`` units (SCRIPT-3) or maximal runs of
    non-whitespace (COUNT-4); None for another counter name."""
    if counter == "unicode":
        return unit_spans(text)
    if counter != "whitespace":
        return None
    starts = [
        i
        for i, ch in enumerate(text)
        if ch not in WHITESPACE and (i == 0 or text[i - 1] in WHITESPACE)
    ]
    return [(s, _token_end(text, s)) for s in starts]


def _before_space(text: str, q: int) -> int:
    """Return the offset where the whitespace run ending at ``q`` starts."""
    while q > 0 and text[q - 1] in WHITESPACE:
        q -= 1
    return q


def _sentence_cuts(data: dict[str, Any], answer: Any) -> bool:
    """PAGE-9: a chunk that is not the last ends at the last sentence end of its window's
    zone ``[max(s + floor(4m/5), s + overlap + 1), s + m]``, else at ``s + m`` tokens; a
    boundary ends a sentence when only whitespace lies between it and a sentence end of
    SENT-1, SENT-5 and SENT-6 (``sentence_ends``: terminators and closers; blank lines not).
    Tokens are the records' counter's (SCRIPT-6: ``unicode`` units, which may touch, on a
    document holding a SCRIPT-2 character)."""
    records = _records(answer)
    size: Any = data.get("max_tokens", 400)
    given: Any = data.get("overlap_tokens")
    if records is None or not _int(size) or len(records) < 2:
        return True
    overlap: int = size // 4 if given is None else given
    if not _int(overlap):
        return True
    source = _source(data)
    spans = _token_spans(source, records[0].get("counter"))
    if spans is None:
        return True  # a counter name pages does not write: RECORD-5's matter
    starts = [a for a, _ in spans]
    n = len(starts)
    finished = set(sentence_ends(source))
    for r in records[:-1]:
        start, end = r.get("start"), r.get("end")
        if not (isinstance(start, int) and isinstance(end, int)):
            return True  # RECORD-3's matter
        s = 0 if r is records[0] else sum(1 for t in starts if t < start)
        cut = sum(1 for t in starts if t < end)  # tokens before the chunk's end
        e = min(s + size, n)
        if e >= n:
            continue
        floor = max(s + 4 * size // 5, s + overlap + 1)
        marks = [j for j in range(floor, e + 1) if _before_space(source, starts[j]) in finished]
        if cut != (marks[-1] if marks else e):
            return False
    return True


def _token_end(text: str, start: int) -> int:
    """The end of the token starting at ``start``."""
    end = start
    while end < len(text) and text[end] not in WHITESPACE:
        end += 1
    return end


def _parent_links(data: dict[str, Any], answer: Any) -> bool:
    """HEAD-4: a heading chunk's parent is the chunk of the closest enclosing heading of a
    lower level (None when there is none or its title is blank); a body chunk's parent is
    its section's heading chunk (None under a blank heading or before any)."""
    from .._text._markdown import parse_markdown_blocks

    records = _records(answer)
    text = data.get("text")
    if records is None or not isinstance(text, str):
        return True
    try:
        headings = [b for b in parse_markdown_blocks(text) if b.kind == "heading"]
    except (TypeError, ValueError):
        return True
    ids = {r.get("start"): r.get("id") for r in records if r.get("kind") == "heading"}
    # The stack of (level, heading chunk id) after each heading: a heading pops every open
    # heading of its level or deeper; one with a blank title (no chunk, HEAD-3) pushes nothing.
    states: list[tuple[int, Any, list[tuple[int, Any]]]] = []
    stack: list[tuple[int, Any]] = []
    for block in headings:
        while stack and stack[-1][0] >= block.level:
            stack.pop()
        parent = stack[-1][1] if stack else None
        if block.text.strip():
            stack.append((block.level, ids.get(block.start)))
        states.append((block.start, parent, list(stack)))
    for r in records:
        start = r.get("start")
        if not isinstance(start, int):
            return True
        if r.get("kind") == "heading":
            own = [parent for at, parent, _ in states if at == start]
            if own and r.get("parent_id") != own[0]:
                return False
        elif r.get("kind") == "body":
            # Its section is the last heading before its end (an overlap that crossed a
            # heading by mistake starts before it: HEAD-6's matter, not HEAD-4's).
            end = r.get("end")
            if not isinstance(end, int):
                return True
            before = [open_ for at, _, open_ in states if at < end]
            top = before[-1][-1][1] if before and before[-1] else None
            if r.get("parent_id") != top:
                return False
    return True


def _heading_texts(data: dict[str, Any], answer: Any) -> tuple[list[str], list[Any]] | None:
    """The document's heading titles and the answer's heading records' texts; None when
    either cannot be read (the check then passes)."""
    from .._text._markdown import parse_markdown_blocks

    records = _records(answer)
    text = data.get("text")
    if records is None or not isinstance(text, str):
        return None
    try:
        titles = [b.text for b in parse_markdown_blocks(text) if b.kind == "heading"]
    except (TypeError, ValueError):
        return None
    return titles, [r.get("text") for r in records if r.get("kind") == "heading"]


def _headings(data: dict[str, Any], answer: Any) -> bool:
    """HEAD-3: one heading chunk per heading with a non-blank title, its text the title."""
    found = _heading_texts(data, answer)
    if found is None:
        return True
    titles, got = found
    return got == [t for t in titles if t.strip()]


def _blank_test_headings(data: dict[str, Any], answer: Any) -> bool:
    """HEAD-10: a heading whose title is blank only to another whitespace set (JavaScript's
    U+FEFF) is not an empty heading: it gives its heading chunk."""
    found = _heading_texts(data, answer)
    if found is None:
        return True
    titles, got = found
    return all(t in got for t in titles if t.strip() and not set(t) - JS_SPACE)


def _no_blank_record(data: dict[str, Any], answer: Any) -> bool:
    """MD-8, HEAD-10: no record's text is empty or whitespace only (Python's whitespace)."""
    records = _records(answer)
    return records is None or all(str(r.get("text", "")).strip() for r in records)


def _keeps_blocks(data: dict[str, Any], answer: Any) -> bool:
    """MD-8, HEAD-10: every top-level block other than a heading whose text is not
    whitespace only (Python's) is in some record's region."""
    from .._text._markdown import parse_markdown_blocks

    records = _records(answer)
    text = data.get("text")
    if records is None or not isinstance(text, str):
        return True
    try:
        blocks = [b for b in parse_markdown_blocks(text) if b.kind != "heading" and b.text.strip()]
    except (TypeError, ValueError):
        return True
    spans: list[tuple[int, int]] = []
    for r in records:
        start, end = r.get("start"), r.get("end")
        if r.get("kind") != "heading" and isinstance(start, int) and isinstance(end, int):
            spans.append((start, end))
    return all(any(a < block.end and b > block.start for a, b in spans) for block in blocks)


def _no_heading_inside(data: dict[str, Any], answer: Any) -> bool:
    """HEAD-6 (and HEAD-2): a body chunk's region holds no heading: overlap never crosses one."""
    from .._text._markdown import parse_markdown_blocks

    records = _records(answer)
    text = data.get("text")
    if records is None or not isinstance(text, str):
        return True
    try:
        starts = [b.start for b in parse_markdown_blocks(text) if b.kind == "heading"]
    except (TypeError, ValueError):
        return True
    for r in records:
        start, end = r.get("start"), r.get("end")
        if r.get("kind") != "body" or not isinstance(start, int) or not isinstance(end, int):
            continue
        if any(start <= at < end for at in starts):
            return False
    return True


def _blank_document(data: dict[str, Any], answer: Any) -> bool:
    """SOURCE-7: a blank document has no record."""
    records = _records(answer)
    return records is None or _source(data).strip() != "" or records == []


def _distinct_keys(data: dict[str, Any], answer: Any) -> bool:
    """KEY-3: the occurrence number keeps equal chunks of one section apart: no two records
    of one answer share a key."""
    keys = [r.get("key") for r in _records(answer) or []]
    return len(keys) == len(set(keys))


def _keys(data: dict[str, Any], answer: Any) -> bool:
    """KEY-1: each record's key is KEY-1's digest of its own fields, in order (KEY-3)."""
    records = _records(answer)
    if records is None:
        return True
    got = [r.get("key") for r in records]
    fields = ("doc_id", "heading_path", "content_hash", "strategy", "counter")
    rows = [{name: r[name] for name in fields} for r in records]
    return [row["key"] for row in keyed_rows(rows)] == got


#: Each op's rule checks, most specific first: ``(rule, what it checks, check, rules it
#: explains)``. A failing check's explained rules are not blamed beside it (a CRLF read as
#: LF breaks RECORD-3's equation too, but MD-2 is what the port got wrong).
_CHECKS: dict[str, list[tuple[str, str, Check, tuple[str, ...]]]] = {}
for _op in _RECORD_OPS:
    _equation_rule = "PAGE-6" if _op == "chunk_pages" else "RECORD-3"
    _CHECKS[_op] = [
        ("SOURCE-7", "a blank document has no record", _blank_document, ()),
        (_equation_rule, "text == prefix + source[start:end]", _equation, ()),
        ("RECORD-2", "id == doc_id:index and content_hash == SHA-256(text)", _ids, ()),
        ("RECORD-14", "tokens == count(text), oversized == tokens > max_tokens", _tokens(_op), ()),
        ("KEY-3", "no two records share a key", _distinct_keys, ("KEY-1",)),
        ("KEY-1", "key is KEY-1's digest of the record's own fields", _keys, ()),
    ]
#: What a whitespace-only record breaks besides: its offsets, id and count are moot.
_BLANK_EXPLAINS = ("RECORD-2", "RECORD-3", "RECORD-14")
_CHECKS["split_markdown"][:0] = [
    ("MD-2", "line breaks kept as the source has them", _line_breaks, ("RECORD-3",)),
    ("MD-8", "no whitespace-only record", _no_blank_record, _BLANK_EXPLAINS),
    ("MD-8", "every block that is not whitespace only is kept", _keeps_blocks, _BLANK_EXPLAINS),
]
_CHECKS["heading_aware"][:0] = [
    ("MD-2", "line breaks kept as the source has them", _line_breaks, ("RECORD-3",)),
    ("HEAD-10", "no whitespace-only record", _no_blank_record, (*_BLANK_EXPLAINS, "HEAD-3")),
    (
        "HEAD-10",
        "every block that is not whitespace only is kept",
        _keeps_blocks,
        (*_BLANK_EXPLAINS, "HEAD-3"),
    ),
    (
        "HEAD-10",
        "a heading blank only to JavaScript's whitespace gives a chunk",
        _blank_test_headings,
        ("HEAD-3", "HEAD-4"),
    ),
    ("HEAD-3", "one heading chunk per non-blank heading", _headings, ("HEAD-4",)),
    ("HEAD-4", "parent_id is the enclosing heading's chunk", _parent_links, ()),
    ("HEAD-6", "a body chunk's region holds no heading", _no_heading_inside, ("HEAD-4",)),
]
_CHECKS["chunk_pages"][:0] = [
    (
        "RECORD-13",
        "the default overlap is max_tokens // 4",
        _default_overlap,
        ("PAGE-9", "PAGE-10", "PAGE-6"),
    ),
    ("PAGE-9", "a chunk ends at its zone's last sentence end", _sentence_cuts, ()),
]


_CHECKS["pack_records"] = PACK_CHECKS
_CHECKS["read_html"] = HTML_CHECKS
_CHECKS["chunk_code"] = CODE_CHECKS


def _only_keys_differ(expected: Any, actual: Any) -> bool:
    """True when both answers are record lists equal but for their ``key`` fields (KEY-1:
    a key is a digest of the record's other fields, so it is blamed only where they agree)."""
    want, got = _records(expected), _records(actual)
    if want is None or got is None or len(want) != len(got):
        return False
    return all(
        {k: v for k, v in w.items() if k != "key"} == {k: v for k, v in g.items() if k != "key"}
        for w, g in zip(want, got, strict=True)
    )


def broken_rules(
    op: str, data: dict[str, Any], expected: Any, actual: Any
) -> list[tuple[str, str]]:
    """``(rule, what it checks)`` for each rule whose check fails on ``actual`` and holds on
    ``expected`` (the reference's answer), explained rules left out."""
    found: list[tuple[str, str, tuple[str, ...]]] = []
    keys_alone = _only_keys_differ(expected, actual)
    for rule, what, check, explains in _CHECKS.get(op, []):
        if rule.startswith("KEY-") and not keys_alone:
            continue  # a key follows from every other field: a wrong one is their symptom
        try:
            if check(data, expected) and not check(data, actual):
                found.append((rule, what, explains))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            continue
    explained = {rule for _, _, explains in found for rule in explains}
    kept = [(rule, what) for rule, what, _ in found if rule not in explained]
    return [pair for k, pair in enumerate(kept) if pair[0] not in [r for r, _ in kept[:k]]]

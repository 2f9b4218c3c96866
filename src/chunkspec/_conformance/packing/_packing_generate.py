"""Generated ``pack_records`` cases (CONF-10): records, scores, a budget and options.

One byte-string draw is read a byte at a time (an exhausted draw reads 0, so a shorter draw
is a simpler case). The input classes the CTX rules talk about come up with these
probabilities, per document or record as stated:

* a document's records overlap (0.4), touch (0.3) or leave gaps (0.3) (CTX-2);
* a document's records carry a table-header prefix (0.4, CTX-3; its first record then
  without it, 0.5), pages (0.3, CTX-5),
  heading paths from a small tree (0.4, CTX-5, CTX-18);
* a second document repeats the first's source word for word (0.25): duplicate content
  across documents (CTX-7);
* a record is `recursive`, not verbatim (0.1 a document, CTX-4);
* a document's records are labelled (0.3) and then each has a tenant or access labels (0.6,
  CTX-13): 0, 1, 2 or 3 of ``staff``, ``hr``, ``eng`` (each set 1/8), of which about 0.07
  cannot be read (a tenant that is not a str, labels that are not a list of str:
  TRUST-10); the principal is none (0.4), labels only (0.3) or labels and a tenant (0.3),
  its labels none, some or all of the three (each set 1/8) (CTX-13, CTX-14);
* a score equals `min_score` (about 0.2 a record, CTX-6); `min_score` is left out (0.5),
  0.35, 0.5 or minus infinity; scores tie often (CTX-6);
* `titles` and `trim` are each left out (0.5, CTX-20), true or false; `order` left out,
  `reading` or `score`; `counter` left out (0.6), `whitespace`, `unicode`, `chars4` or
  `subword` (CTX-21); `expand` 0.5 (0.15);
* the budget is 2 or 3 with a prefixed record scored best (0.2 when a record has a prefix:
  no cut of it fits, so trimming is spent on it, CTX-19), at most the best record's words
  plus 2 (0.3: it does not fit whole, a cut of it may), below 12 (0.2) or 4 to 47, so
  records are cut (CTX-19) and skipped (CTX-8);
* one argument out of range (0.125, CTX-15); in the hazards profile one more option out of
  range (0.125, CONF-10).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ._packing_ops import golden_record

__all__ = ["pack_cases"]

Case = tuple[str, dict[str, Any]]

_WORDS = ["a", "b", "cc", "d", "ee", "f", "g", "hh"]
_HAZARD_WORDS = [*_WORDS, "\U0001f600", "\u00e9t\u00e9", "x\u00a0y", "\u4e2d"]
_PATHS: list[list[str]] = [["A"], ["A", "B"], ["A", "C"], ["D"]]
_SCORES = [0.9, 0.8, 0.5, 0.35, 0.35, 0.3, 0.5, 0.7]
_BAD: list[tuple[str, Any]] = [
    ("budget", -1),
    ("budget", True),
    ("budget", 2.5),
    ("titles", "no"),
    ("trim", 1),
    ("order", "position"),
    ("expand", 0),
    ("counter", "words"),
    ("min_score", "NaN"),
    ("scores", []),
]

_MAX_SAFE = 2**53 - 1
#: Hazards only: one option out of range (CONF-10: every argument is drawn
#: with a lone surrogate, edge whitespace and another type, an integer at and past 2**53 - 1,
#: -0.0, a boolean and a non-finite number, a float NaN, an infinity, -0.0 and a boolean).
_STR_BAD: list[Any] = ["a\ud800", " a", "a\t", "\ufeffa", "a\x85", "\x1ca", "\na", 7]
_INT_BAD: list[Any] = [_MAX_SAFE, _MAX_SAFE + 1, -0.0, True, "Infinity", "NaN"]
_FLOAT_BAD: list[Any] = ["NaN", "Infinity", "-Infinity", -0.0, False]
_HAZARDS: list[tuple[str, Any]] = [
    *(("order", v) for v in _STR_BAD),
    *(("counter", v) for v in _STR_BAD[:-1]),
    *(("budget", v) for v in _INT_BAD),
    *((f, v) for f in ("min_score", "expand") for v in _FLOAT_BAD),
]


class _Reader:
    """Bytes read one at a time; past the end every read is 0."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._at = 0

    def byte(self) -> int:
        """The next byte, or 0."""
        value = self._data[self._at] if self._at < len(self._data) else 0
        self._at += 1
        return value

    def pick(self, n: int) -> int:
        """A number in ``range(n)``."""
        return self.byte() % n

    def chance(self, tenths: int) -> bool:
        """True with probability ``tenths / 10`` (of the byte's 250 low values)."""
        return self.byte() % 250 < 25 * tenths


def _records(read: _Reader, hazards: bool) -> list[dict[str, Any]]:
    """One to three documents' records (the classes above)."""
    words = _HAZARD_WORDS if hazards else _WORDS
    records: list[dict[str, Any]] = []
    sources: list[str] = []
    for d in range(1 + read.pick(3)):
        if d == 1 and read.chance(2) and sources:  # 0.25: the first document's words again
            source = sources[0]
        else:
            source = " ".join(words[read.pick(len(words))] for _ in range(4 + read.pick(10)))
        sources.append(source)
        doc = "d" if d == 0 else f"e{d}"
        bounds = [0]
        for k, ch in enumerate(source):
            if ch == " ":
                bounds.append(k)
        ends = [*bounds[1:], len(source)]
        starts = [0, *(b + 1 for b in bounds[1:])]
        n = len(starts)
        mode = read.pick(10)  # 0-3 overlap, 4-6 touch, 7-9 gap
        size = 1 + read.pick(4)
        step = max(1, size - 1 - read.pick(2)) if mode < 4 else size if mode < 7 else size + 1
        prefix = "| h |\n" if read.chance(4) else ""
        paged = read.chance(3)
        headed = read.chance(4)
        recursive = read.chance(1)
        labelled = read.chance(3)
        for index, w in enumerate(range(0, n, step)):
            last = min(n, w + size) - 1
            start, end = starts[w], ends[last]
            if 4 <= mode < 7 and w > 0:
                start = ends[w - 1]  # touching: this record starts where the last one ended
            strategy, prefix_here = "window:max_tokens=8,overlap_tokens=2", prefix
            if recursive and index == 0:
                strategy, prefix_here = "recursive:max_tokens=8", ""
            elif index == 0 and prefix and read.chance(5):  # the table's first window: no prefix
                prefix_here = ""
            fields: dict[str, Any] = {
                "start": start,
                "end": end,
                "prefix": prefix_here,
                "strategy": strategy,
            }
            if headed:
                fields["heading_path"] = list(_PATHS[read.pick(4)])
            if paged:
                fields["page_start"], fields["page_end"] = 1 + w // 3, 1 + last // 3
            record = golden_record(doc, index, source, fields)  # text: prefix + the span
            if labelled and read.chance(6):
                record["metadata"] = _labels(read.byte() % 250)
            records.append(record)
            if len(records) >= 10:
                return records
    return records


#: Labels that cannot be read (TRUST-10): a tenant that is not a str, labels that are not a
#: list of str (a str, a number, a list holding a non-str, nested).
_MALFORMED: list[dict[str, Any]] = [
    {"tenant_id": 7},
    {"tenant_id": ["acme"]},
    {"acl_labels": "staff"},
    {"acl_labels": ["staff", 1]},
    {"acl_labels": [["staff"]]},
    {"acl_labels": {"staff": True}},
]


#: The access labels records and principals draw from: a record needs all of its own
#: (CTX-13), so a set of several tells "all" from "any".
_LABELS = ("staff", "hr", "eng")


def _label_set(bits: int) -> list[str]:
    """The labels of ``_LABELS`` whose bit is set in ``bits`` (0 to 7): none, some or all."""
    return [label for k, label in enumerate(_LABELS) if bits >> k & 1]


def _labels(draw: int) -> dict[str, Any]:
    """A labelled record's metadata from one byte's low value (0 to 249): a tenant (below
    125), access labels (0 to 3 of them, by the value's low bits), or (above 231, about
    0.07) labels that cannot be read (TRUST-10)."""
    if draw > 231:
        return dict(_MALFORMED[draw % len(_MALFORMED)])
    return {"tenant_id": "acme"} if draw < 125 else {"acl_labels": _label_set(draw % 8)}


def _build(args: tuple[bytes, int], hazards: bool) -> Case:
    """A case from one byte draw and one out-of-range draw."""
    draw, fault = args
    read = _Reader(draw)
    records = _records(read, hazards)
    scores: list[Any] = [_SCORES[read.pick(len(_SCORES))] for _ in records]
    tight = read.pick(10)
    prefixed = [k for k, r in enumerate(records) if r["prefix"]]
    if tight < 2 and prefixed:  # the best record's prefix leaves no cut that fits: trim spent
        scores[prefixed[read.pick(len(prefixed))]] = 0.95
        budget = 2 + read.pick(2)
    elif tight < 5 and records:  # the best record does not fit whole, a cut of it may (CTX-19)
        best = max(range(len(records)), key=lambda k: scores[k])
        budget = 2 + read.pick(1 + records[best]["tokens"])
    elif tight < 7:
        budget = read.pick(12)
    else:
        budget = 4 + read.pick(44)
    data: dict[str, Any] = {"records": records, "scores": scores, "budget": budget}
    choice = read.pick(8)
    if choice >= 4:
        data["min_score"] = [0.35, 0.5, "-Infinity", 0.35][choice - 4]
    for name in ("titles", "trim"):
        flag = read.pick(4)
        if flag >= 2:
            data[name] = flag == 2
    order = read.pick(3)
    if order:
        data["order"] = ["reading", "score"][order - 1]
    counter = read.pick(10)
    if counter >= 6:
        data["counter"] = ["whitespace", "unicode", "chars4", "subword"][counter - 6]
    if read.chance(1) or read.chance(1):
        data["expand"] = 0.5
    principal = read.pick(10)
    if principal >= 4:  # none, some or all of the labels records carry
        data["principal"] = {"labels": _label_set(read.pick(8))}
        if principal >= 7:
            data["principal"]["tenant"] = "acme"
    if fault % 8 == 7:
        name, value = _BAD[(fault // 8) % len(_BAD)]
        data[name] = value
    elif hazards and fault % 8 == 6:
        name, value = _HAZARDS[(fault * 2654435761 >> 9) % len(_HAZARDS)]
        data[name] = value
    return "pack_records", data


def pack_cases(hazards: bool) -> st.SearchStrategy[Case]:
    """``pack_records`` cases for the ``portable`` or ``hazards`` profile."""
    return st.tuples(st.binary(min_size=64, max_size=160), st.integers(0, 2**16)).map(
        lambda args: _build(args, hazards)
    )

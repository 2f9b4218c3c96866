"""Generated differential cases: Hypothesis strategies for each op, in wire form (CONF-10).

Two profiles: ``portable`` (what any sane port must get right: ASCII words, the SPLIT-2
separators, small budgets, ordinary scores) and ``hazards`` (every input on which Python and
JavaScript differ unless the port is careful: the HAZ rules of these ops, docs/portability.md).

Speed comes from drawing few Hypothesis choices per case (and from drawing them outside
the test engine, ``_draw``): a
text is ONE byte-string draw whose bytes pick characters that expand to words and
separators, and the chunks of an assemble case are ONE byte-string draw, three bytes a chunk,
whose digits pick each chunk's fields. Shrinking still works
on these choices: a shorter string or a smaller integer is a simpler case.

Every argument is also drawn outside its valid range (CONF-10): one integer draw per case
picks, about one case in four, an argument (a chunk's field, for assemble) and a value for
it from the pool of its kind (``OUT_OF_RANGE``): lone surrogates and edge whitespace in
strings, integers at and past ``2**53 - 1``, ``-0.0``, booleans, non-finite numbers and
values of the wrong type. The draw shrinks to 0, which changes nothing.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .._core._tokens import WHITESPACE
from ._pools import (
    FAULT,
    HAZARD_NAMES,
    MAX_SAFE,
    NAMES,
    OUT_OF_RANGE,
    PORTABLE_OUT_OF_RANGE,
    Field,
    replace_field,
)
from .code._code_generate import code_cases
from .documents._documents_generate import document_cases
from .html._html_generate import html_cases
from .markdown._markdown_generate import markdown_cases
from .packing._packing_generate import pack_cases
from .windows._windows_generate import window_ops

__all__ = ["PROFILES", "by_op"]

PROFILES = ("portable", "hazards")

Case = tuple[str, dict[str, Any]]

#: Code characters of a text draw and what they expand to (the rest stand for themselves).
_PORTABLE_CODES = {"-": " ", "+": "  ", "|": "\n", "=": "\n\n", "#": "\n\n\n", "~": "\t"}
_HAZARD_CODES = {
    **_PORTABLE_CODES,
    "R": "\r\n",
    "Q": "\r\n\r\n",
}
#: Lone surrogates put into about one hazard text in eight (HAZ-4).
_SURROGATES = [
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "\ud800",
    "\udfff",
    "\udc00\ud800",
]
_PORTABLE_LETTERS = "abcxyz019"
_HAZARD_LETTERS = (
    _PORTABLE_LETTERS
    + "\u00e9\U0001f600\ue000\uffff\ufeff\u200b\u180e"
    + "".join(sorted(WHITESPACE))
)

_IDS = ["a", "b", "c", "a1", "ab", "d:2", "d:10", ""]
#: Hazard ids: pairs that JavaScript orders differently (HAZ-2, HAZ-3), few so they tie often.
_HAZARD_IDS = ["\ue000", "\U0001f600", "\uffff", "\U00010000", "a", "B", "\u00e9", "f"]
_SCORES: list[Any] = [0.5, 0.9, 0.35, 0.2, 0.0, 1.0, 0.7, 0.34]
#: Hazard scores: repeated values so that ties (broken by id) are common.
_HAZARD_SCORES: list[Any] = [
    0.5,
    0.5,
    0.5,
    0.9,
    -0.0,
    0.0,
    "Infinity",
    "Infinity",
    "-Infinity",
    "-Infinity",
    0.35,
    0.3499999999999999,
    0.35000000000000003,
    1,
    0,
]
_HASHES = ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8"]
_TEXTS = ["x", "y z", "", "w0 w1 w2"]

#: Bad integer arguments (a TypeError or ValueError each).
_BAD_INTS: list[Any] = [0, -1, 1.5, True, "2", None, MAX_SAFE + 1]
_HAZARD_BAD_INTS: list[Any] = [*_BAD_INTS, -0.0, "Infinity", "NaN", 2**64]

#: A chunk's fields and the kind of value each takes.
_CHUNK_FIELDS = [
    ("id", "str"),
    ("doc_id", "str"),
    ("title", "str"),
    ("text", "str"),
    ("content_hash", "str"),
    ("tokens", "int"),
    ("score", "score"),
]


def _out_of_range(hazards: bool, data: dict[str, Any], fault: int, fields: list[Field]) -> None:
    """About one case in four: set one field to an out-of-range value (:func:`replace_field`)."""
    replace_field(data, fault, fields, OUT_OF_RANGE if hazards else PORTABLE_OUT_OF_RANGE)


def _text(hazards: bool) -> st.SearchStrategy[str]:
    """A text from one byte-string draw: each byte picks a code character (then expanded)."""
    codes = _HAZARD_CODES if hazards else _PORTABLE_CODES
    letters = _HAZARD_LETTERS if hazards else _PORTABLE_LETTERS
    # Letters first: byte 0 (what shrinking aims for) is the simplest character, a word.
    table = [codes.get(c, c) for c in letters + "".join(codes)]

    def expand(code: bytes) -> str:
        return "".join([table[b % len(table)] for b in code])

    # Hypothesis keeps collections short on average (about 5 items); draw a minimum
    # length first so that many texts are long enough to split at several levels.
    text = (
        st.sampled_from([0, 6, 16, 32])
        .flatmap(lambda least: st.binary(min_size=least, max_size=least + 30))
        .map(expand)
    )
    if not hazards:
        return text

    def insert(args: tuple[str, str, int]) -> str:
        body, surrogate, at = args
        at = min(at, len(body))
        return body[:at] + surrogate + body[at:]

    return st.tuples(text, st.sampled_from(_SURROGATES), st.integers(0, 40)).map(insert)


def _pick(values: list[Any], digits: int) -> Any:
    """``values[digits % len(values)]``."""
    return values[digits % len(values)]


def _chunk_of(hazards: bool, bits: int) -> dict[str, Any]:
    """Decode one chunk from an integer: each field takes the next 'digits' of it."""
    ids = _HAZARD_IDS if hazards else _IDS
    scores = _HAZARD_SCORES if hazards else _SCORES
    fields = []
    for size in (len(ids), len(scores), 12, len(_HASHES), len(_TEXTS)):
        fields.append(bits % size)
        bits //= size
    ident, score, tokens, digest, text = fields
    names = HAZARD_NAMES if hazards else NAMES
    # The title pool starts one later, so that the simplest chunk is ("d", "T").
    doc_id, title = bits % len(names), (bits // len(names) + 1) % len(names)
    tokens_value = tokens if tokens < 11 else (MAX_SAFE - 1 if hazards else 3)
    return {
        "id": ids[ident],
        "doc_id": names[doc_id],
        "title": names[title],
        "text": _TEXTS[text],
        "tokens": tokens_value,
        "content_hash": _HASHES[digest],
        "score": scores[score],
    }


def _split(hazards: bool) -> st.SearchStrategy[Case]:
    """split_section inputs: text, max_tokens (about one in seven bad), doc id and title."""
    good = [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8, 12] * 2 + (
        [MAX_SAFE, MAX_SAFE - 1] if hazards else []
    )
    bad = _HAZARD_BAD_INTS if hazards else _BAD_INTS
    names = HAZARD_NAMES if hazards else NAMES
    fields: list[Field] = [
        (("doc_id",), "str"),
        (("title",), "str"),
        (("text",), "str"),
        (("max_tokens",), "int"),
    ]

    def build(args: tuple[str, Any, int, int]) -> Case:
        text, max_tokens, name, fault = args
        data = {
            "doc_id": names[name % len(names)],
            "title": names[(name // len(names) + 1) % len(names)],
            "text": text,
            "max_tokens": max_tokens,
        }
        _out_of_range(hazards, data, fault, fields)
        return "split_section", data

    return st.tuples(
        _text(hazards),
        st.sampled_from(good + bad),
        st.integers(0, len(names) ** 2 - 1),
        FAULT,
    ).map(build)


def _assemble(hazards: bool) -> st.SearchStrategy[Case]:
    """assemble inputs: up to 8 chunks (one integer each), a budget and maybe min_score."""
    budgets = [*range(13), 20, 30]
    if hazards:
        budgets += [MAX_SAFE, MAX_SAFE - 1]
    options: list[Any] = [None, None, None, *(_HAZARD_SCORES if hazards else _SCORES)]
    bad = _HAZARD_BAD_INTS if hazards else _BAD_INTS
    # 0 is a valid budget; -0.0 (equal to it) is not, and stays.
    bad_budgets = [b for b in bad if not (type(b) is int and b == 0)]

    def build(args: tuple[bytes, int, Any, int, int]) -> Case:
        codes, budget, min_score, fault, wide = args
        data: dict[str, Any] = {
            "chunks": [
                _chunk_of(hazards, int.from_bytes(codes[k : k + 3], "big"))
                for k in range(0, len(codes) - 2, 3)
            ],
            "budget": budget,
        }
        if min_score is not None:
            data["min_score"] = min_score
        if fault % 17 == 16:  # about one in seventeen: a bad budget, score or tokens
            which = fault // 17
            if which % 3 == 0 or not data["chunks"]:
                data["budget"] = _pick(bad_budgets, which // 3)
            elif which % 3 == 1:
                data["chunks"][-1]["score"] = _pick(["NaN", True, None, "0.5"], which // 3)
            else:
                data["chunks"][-1]["tokens"] = _pick(bad_budgets, which // 3)
        fields: list[Field] = [(("budget",), "int"), (("chunks",), "chunks")]
        fields.append((("min_score",), "score"))
        if "min_score" not in data:
            data["min_score"] = 0.35  # a valid value, replaced only if this field is picked
        fields += [
            (("chunks", k, name), kind)
            for k in range(len(data["chunks"]))
            for name, kind in _CHUNK_FIELDS
        ]
        fields += [(("chunks", k), "chunk") for k in range(len(data["chunks"]))]
        _out_of_range(hazards, data, wide, fields)
        if min_score is None and data["min_score"] == 0.35:
            del data["min_score"]
        return "assemble", data

    return st.tuples(
        # Three bytes a chunk, one draw for all of them; a least count drawn first, so that
        # many cases have several chunks to order, dedupe and skip.
        st.sampled_from([0, 2, 3, 5]).flatmap(lambda k: st.binary(min_size=3 * k, max_size=24)),
        st.sampled_from(budgets),
        st.sampled_from(options),
        st.integers(0, 17 * 30),
        FAULT,
    ).map(build)


def _simple(hazards: bool) -> dict[str, st.SearchStrategy[Case]]:
    """count_tokens, hash_text, render and words inputs."""
    text = _text(hazards)
    # Texts NFC changes (a port that normalises before hashing, HASH-3) now and then.
    decomposed = st.sampled_from(["e\u0301", "A\u030a x", "\u1100\u1161", "\u212b"])
    nfc = st.tuples(decomposed, text).map("".join)
    any_text = text | st.text(max_size=12) | nfc if hazards else st.text(max_size=12)
    starts: list[Any] = [*range(12), 100, 999]
    if hazards:  # HAZ-9, HAZ-11: start + n - 1 at and past 2**53 - 1
        starts += [MAX_SAFE - 8, MAX_SAFE - 20, MAX_SAFE - 2, MAX_SAFE - 1, MAX_SAFE]
    # A few fixed values (what shrinking aims for) or any of a larger space, so that
    # thousands of distinct cases exist (CONF-10).
    word_args = st.tuples(
        st.integers(0, 12),
        st.sampled_from([None, *starts]) | st.integers(0, 10**6),
        st.sampled_from([None, "w", "x-", "", "\u00e9", " w "])
        | st.text("wx-\u00e9 ", min_size=1, max_size=4),
        FAULT,
    )

    def words(args: tuple[int, Any, Any, int]) -> Case:
        n, start, word, fault = args
        data: dict[str, Any] = {"n": n}
        if start is not None:
            data["start"] = start
        if word is not None:
            data["word"] = word
        fields: list[Field] = [(("n",), "count"), (("start",), "int"), (("word",), "str")]
        _out_of_range(hazards, data, fault, fields)
        return "words", data

    def one_text(op: str) -> Any:
        def build(args: tuple[str, int]) -> Case:
            data = {"text": args[0]}
            _out_of_range(hazards, data, args[1], [(("text",), "str")])
            return op, data

        return build

    def render(args: tuple[int, int]) -> Case:
        data: dict[str, Any] = {"c": _chunk_of(hazards, args[0])}
        # render checks only that c is a chunk (RENDER-1): its fields get strings only.
        fields: list[Field] = [
            (("c", name), "chunk_text") for name, k in _CHUNK_FIELDS if k == "str"
        ]
        _out_of_range(hazards, data, args[1], [*fields, (("c",), "chunk")])
        return "render", data

    return {
        "count_tokens": st.tuples(text, FAULT).map(one_text("count_tokens")),
        "hash_text": st.tuples(any_text, FAULT).map(one_text("hash_text")),
        "render": st.tuples(st.integers(0, 2**24), FAULT).map(render),
        "words": word_args.map(words),
    }


def _windows(hazards: bool) -> st.SearchStrategy[Case]:
    """chunk inputs: a text (astral characters in the hazards profile, HAZ-12), a size and
    an overlap below it (one in eight at or above it), names, one field maybe out of range."""
    names = HAZARD_NAMES if hazards else NAMES
    fields: list[Field] = [
        (("doc_id",), "str"),
        (("title",), "str"),
        (("text",), "str"),
        (("max_tokens",), "int"),
        (("overlap_tokens",), "int"),
    ]

    def build(args: tuple[str, int, int, int, int]) -> Case:
        text, size, overlap, name, fault = args
        if overlap % 8 != 7:
            overlap %= size
        data = {
            "doc_id": names[name % len(names)],
            "title": names[(name // len(names) + 1) % len(names)],
            "text": text,
            "max_tokens": size,
            "overlap_tokens": overlap,
        }
        _out_of_range(hazards, data, fault, fields)
        return "chunk", data

    return st.tuples(
        _text(hazards),
        st.integers(1, 12),
        st.integers(0, 15),
        st.integers(0, len(names) ** 2 - 1),
        FAULT,
    ).map(build)


def by_op(profile: str) -> dict[str, st.SearchStrategy[Case]]:
    """One strategy per op for ``profile``: the runner sends ``--cases`` distinct cases of
    each op listed here that the port announces (CONF-10)."""
    hazards = profile == "hazards"
    return {
        "split_section": _split(hazards),
        "assemble": _assemble(hazards),
        **_simple(hazards),
        "chunk": _windows(hazards),
        **markdown_cases(hazards),
        **window_ops(profile),
        "pack_records": pack_cases(hazards),
        **html_cases(hazards),
        **code_cases(hazards),
        **document_cases(hazards),
    }

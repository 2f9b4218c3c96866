"""The models behind blame (CONF-9), against answers worked out by hand.

``_split_model`` and ``_assemble_model`` replay a case with one classic porting mistake
swapped in; blame points at a rule only when the port's answer equals a model's. A model
that drifts would blame the wrong rule (or none) without any other test noticing, so each
model, with and without each mistake, is pinned here on small inputs whose answers follow
from docs/spec.md by hand. The rule-level goldens are the ``blame-*`` cases of
tests/golden/conformance.json.
"""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec._conformance._blame import (
    _assemble_model,
    _chunks,
    _js_split_length,
    _js_trim,
    _js_words,
    _split_model,
    blame,
)


def test_js_trim_strips_javascript_whitespace_only() -> None:
    """WS-1: ``trim()`` strips NBSP, U+FEFF and U+3000 but not U+001C (Python's strip does)."""
    assert _js_trim("\u00a0\ufeff a b \u3000\n") == "a b"
    assert _js_trim("\x1ca\x1c") == "\x1ca\x1c"
    assert _js_trim("\t\t") == ""


def test_js_counts() -> None:
    """TOK-1, WS-1: ``split(/\\s+/)`` counts empty ends; /\\s/ words ignore U+001C."""
    assert _js_split_length(" a b ") == 4
    assert _js_split_length("") == 1
    assert _js_words(" a\x1cb c ") == 2
    assert _js_words("a\u3000b") == 2


# -- _split_model: split_section (SPLIT rules), literally ---------------------------------------

SPLIT_CASES = [
    # (text, max_tokens, [(text, tokens)]) from docs/spec.md, by hand
    ("abc", 1, [("abc", 1)]),  # SPLIT-5: no separator at all
    ("a\tb c", 1, [("a\tb", 2), ("c", 1)]),  # SPLIT-5
    ("  ", 3, [("", 0)]),  # SPLIT-10
    ("a\n\n\n\nb", 5, [("a\n\n\n\nb", 2)]),  # SPLIT-1: fits whole, kept as is
    ("a\n\n\n\nb", 2, [("a\n\n\n\nb", 2)]),  # SPLIT-1 at the boundary
    ("a \n\n b\n\nc d e", 2, [("a \n\n b", 2), ("c d", 2), ("e", 1)]),  # SPLIT-3
    ("a\n\n\n\nb\n\nc d", 2, [("a\n\nb", 2), ("c d", 2)]),  # SPLIT-3: blank piece dropped
    ("a\n\nb c d\n\ne", 2, [("a", 1), ("b c", 2), ("d", 1), ("e", 1)]),  # SPLIT-8
    ("a\n\nb\n\nc d e\n\nf", 2, [("a\n\nb", 2), ("c d", 2), ("e", 1), ("f", 1)]),  # SPLIT-7
    ("a b c\nd\n\ne f g h", 2, [("a b", 2), ("c", 1), ("d", 1), ("e f", 2), ("g h", 2)]),
    ("a b c d e", 3, [("a b c", 3), ("d e", 2)]),  # SPLIT-4
    ("a\r\nb\r\nc d", 2, [("a\r\nb", 2), ("c d", 2)]),  # SPLIT-11
    ("a\nb c\nd", 3, [("a\nb c", 3), ("d", 1)]),  # SPLIT-2: "\n" before " "
]


@pytest.mark.parametrize(("text", "max_tokens", "want"), SPLIT_CASES)
def test_split_model_is_split_section(
    text: str, max_tokens: int, want: list[tuple[str, int]]
) -> None:
    """SPLIT-1..SPLIT-11: with no mistake swapped in, the model gives the spec's chunks."""
    assert _split_model(text, max_tokens) == want


def test_split_model_merge_last() -> None:
    """SPLIT-8's mistake: the last sub-chunk of an oversized piece takes the next piece
    when the two fit together, and only then."""
    assert _split_model("a\n\nb c d\n\ne", 2, merge_last=True) == [
        ("a", 1),
        ("b c", 2),
        ("d\n\ne", 2),
    ]
    # e f does not fit beside d (1 + 2 > 2): no merge
    assert _split_model("a\n\nb c d\n\ne f", 2, merge_last=True) == [
        ("a", 1),
        ("b c", 2),
        ("d", 1),
        ("e f", 2),
    ]
    # the oversized piece is the last one: nothing to merge with
    assert _split_model("a\n\nb c d", 2, merge_last=True) == [("a", 1), ("b c", 2), ("d", 1)]
    # after a merge the walk goes on with the piece after the merged one
    assert _split_model("x y z\n\ne\n\nf g", 2, merge_last=True) == [
        ("x y", 2),
        ("z\n\ne", 2),
        ("f g", 2),
    ]


def test_split_model_with_javascript_steps() -> None:
    """WS-1, TOK-1: trim() keeps U+001C; split(/\\s+/) counts a leading space as a token;
    /\\s/ words do not split at U+001C."""
    assert _split_model("\x1ca\n\nb", 1, strip=_js_trim) == [("\x1ca", 1), ("b", 1)]
    assert _split_model(" a\n\nb", 2) == [("a\n\nb", 2)]
    assert _split_model(" a\n\nb", 2, count=_js_split_length) == [("a", 2), ("b", 1)]
    assert _split_model(" a\x1cb c", 1) == [("a\x1cb", 2), ("c", 1)]
    assert _split_model(" a\x1cb c", 1, strip=_js_trim, count=_js_words) == [
        ("a\x1cb", 1),
        ("c", 1),
    ]


def test_chunks_fills_in_split_9() -> None:
    """SPLIT-9: ids from 0, doc_id, title, the SHA-256 of the text, score 0.0."""
    got = _chunks({"doc_id": "d", "title": "T"}, [("a", 1), ("", 0)])
    assert got == [
        {
            "id": "d:0",
            "doc_id": "d",
            "title": "T",
            "text": "a",
            "tokens": 1,
            "content_hash": "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb",
            "score": 0.0,
        },
        {
            "id": "d:1",
            "doc_id": "d",
            "title": "T",
            "text": "",
            "tokens": 0,
            "content_hash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "score": 0.0,
        },
    ]


# -- _assemble_model: assemble (PACK rules), literally -----------------------------------------


def _c(ident: str, score: Any = 0.5, tokens: int = 1, digest: str = "") -> dict[str, Any]:
    chunk = {
        "id": ident,
        "doc_id": "d",
        "title": "T",
        "text": "x",
        "tokens": tokens,
        "content_hash": digest or f"h-{ident}",
    }
    if score is not None:
        chunk["score"] = score
    return chunk


def _ids(answer: Any) -> list[str] | None:
    return None if answer is None else list(answer["ids"])


def test_assemble_model_context() -> None:
    """PACK-9: the context is the rendered picked chunks joined by newlines."""
    got = _assemble_model({"chunks": [_c("a", 0.9), _c("b", 0.8)], "budget": 5})
    assert got == {"context": "[a] T\nx\n[b] T\nx", "ids": ["a", "b"]}


def test_assemble_model_order() -> None:
    """PACK-1, PACK-2: best score first, ties by code point (B < a < b), in every key;
    UTF-16 puts U+1F600 before U+E000; score-only keeps tied chunks in input order."""
    scored = {"chunks": [_c("a", 0.2), _c("b", 0.9)], "budget": 5, "min_score": 0.0}
    for key in ("code-point", "utf-16", "score-only"):
        assert _ids(_assemble_model(scored, key=key)) == ["b", "a"], key
    tied = {"chunks": [_c("b"), _c("a"), _c("B")], "budget": 5}
    assert _ids(_assemble_model(tied)) == ["B", "a", "b"]
    assert _ids(_assemble_model(tied, key="utf-16")) == ["B", "a", "b"]
    assert _ids(_assemble_model(tied, key="score-only")) == ["b", "a", "B"]
    astral = {"chunks": [_c("\ue000"), _c("\U0001f600")], "budget": 5}
    assert _ids(_assemble_model(astral)) == ["\ue000", "\U0001f600"]
    assert _ids(_assemble_model(astral, key="utf-16")) == ["\U0001f600", "\ue000"]


def test_assemble_model_min_score() -> None:
    """PACK-4, PACK-5: stop below min_score (default 0.35, else the given one); a chunk
    without a score has 0.0; with the mistake, stop at a score equal to min_score."""
    data = {"chunks": [_c("a", 0.9), _c("b", 0.2), _c("c", 0.1)], "budget": 5}
    assert _ids(_assemble_model(data)) == ["a"]
    assert _ids(_assemble_model({**data, "min_score": 0.15})) == ["a", "b"]
    assert _ids(_assemble_model({**data, "min_score": "-Infinity"})) == ["a", "b", "c"]
    unscored = {"chunks": [_c("n", None), _c("s", 0.5)], "budget": 5, "min_score": 0.0}
    assert _ids(_assemble_model(unscored)) == ["s", "n"]
    boundary = {"chunks": [_c("a", 0.9), _c("b", 0.35)], "budget": 5}
    assert _ids(_assemble_model(boundary)) == ["a", "b"]
    assert _ids(_assemble_model(boundary, stop_le=True)) == ["a"]
    assert _assemble_model({"chunks": [_c("b", 0.35)], "budget": 5}, stop_le=True) is None


def test_assemble_model_dedupe() -> None:
    """PACK-6: a chunk whose hash was picked is skipped and the walk goes on; with the
    mistake, a hash only seen (on a chunk skipped for size) also excludes."""
    dup = {"chunks": [_c("a", 0.9, 1, "h1"), _c("b", 0.8, 1, "h1"), _c("c", 0.7, 1, "h2")]}
    assert _ids(_assemble_model({**dup, "budget": 5})) == ["a", "c"]
    seen = {
        "chunks": [_c("a", 0.9, 5, "h1"), _c("b", 0.8, 1, "h1"), _c("c", 0.7, 1, "h2")],
        "budget": 2,
    }
    assert _ids(_assemble_model(seen)) == ["b", "c"]
    assert _ids(_assemble_model(seen, dedupe_seen=True)) == ["c"]


def test_assemble_model_budget() -> None:
    """PACK-7: a chunk that fits exactly is taken, the room shrinks by its tokens, one that
    does not fit is skipped; with the mistake, the walk stops there."""
    three = {"chunks": [_c("a", 0.9), _c("b", 0.8), _c("c", 0.7)], "budget": 2}
    assert _ids(_assemble_model(three)) == ["a", "b"]
    assert _ids(_assemble_model({"chunks": [_c("a", 0.9, 2)], "budget": 2})) == ["a"]
    skip = {"chunks": [_c("a", 0.9), _c("b", 0.8, 5), _c("c", 0.7)], "budget": 3}
    assert _ids(_assemble_model(skip)) == ["a", "c"]
    assert _ids(_assemble_model(skip, break_over=True)) == ["a"]
    first = {"chunks": [_c("a", 0.9, 5), _c("b", 0.8)], "budget": 3}
    assert _assemble_model(first, break_over=True) is None


# -- blame for errors and other outcomes -------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "argument", "rules"),
    [
        ("assemble", "chunks[1].score", ["PACK-10", "PACK-5"]),
        ("assemble", "min_score", ["PACK-10", "PACK-5"]),
        ("assemble", "budget", ["PACK-10", "PORT-1"]),
        ("assemble", "chunks[0].tokens", ["PACK-10", "PORT-1"]),
        ("assemble", "chunks[0].id", ["PACK-10", "PORT-2"]),
        ("assemble", "chunks", ["PACK-10"]),
        ("split_section", "max_tokens", ["SPLIT-12", "PORT-1"]),
        ("split_section", "doc_id", ["SPLIT-12", "PORT-2"]),
        ("split_section", "title", ["SPLIT-12", "PORT-2"]),
        ("split_section", "", ["SPLIT-12"]),
        ("count_tokens", "text", ["TOK-1", "PORT-2"]),
        ("hash_text", "text", ["HASH-2", "PORT-2"]),
        ("render", "c", ["RENDER-1"]),
        ("words", "n", ["WORDS-2", "PORT-1"]),
        ("words", "start", ["WORDS-2", "PORT-1"]),
        ("words", "word", ["WORDS-2"]),
    ],
)
def test_expected_error_is_blamed_on_the_argument(op: str, argument: str, rules: list[str]) -> None:
    """CONF-9: a missed error is blamed on the function's argument rule, plus PACK-5 for
    scores, PORT-1 for the other numbers and PORT-2 for strings."""
    expected = {"error": {"kind": "ValueError", "argument": argument}}
    got = blame(op, {}, expected, "wrong", "error", 1)
    assert got == (rules, f"expected ValueError naming {argument!r}")


def test_expected_error_without_argument() -> None:
    """CONF-9: an expected error that names no argument blames the function's rule."""
    expected = {"error": {"kind": "TypeError", "argument": None}}
    assert blame("words", {}, expected, "wrong", "error", 1) == (
        ["WORDS-2"],
        "expected TypeError naming ''",
    )


def test_rejected_valid_input_is_blamed_on_the_named_argument() -> None:
    """CONF-8, CONF-9: an error on a valid input blames the argument the port named."""
    error = {"kind": "ValueError", "message": "m", "argument": "max_tokens"}
    got = blame("split_section", {}, {"ok": []}, "rejected", "$", error)
    assert got == (["SPLIT-12", "PORT-1"], "the port rejected a valid input")
    got = blame("words", {}, {"ok": ""}, "rejected", "$", {"kind": "ValueError"})
    assert got == (["WORDS-2"], "the port rejected a valid input")
    got = blame("words", {}, {"ok": ""}, "rejected", "$", "not a dict")
    assert got == (["WORDS-2"], "the port rejected a valid input")


@pytest.mark.parametrize("outcome", ["crash", "timeout", "skipped"])
def test_other_outcomes_blame_no_rule(outcome: str) -> None:
    """CONF-9: a crash, timeout or skip blames no rule; the outcome is the explanation."""
    assert blame("words", {"n": 1}, {"ok": "w0"}, outcome, "", None) == ([], outcome)


def test_a_model_that_raises_blames_by_field() -> None:
    """CONF-9: an input the models cannot replay (a malformed chunk) falls back to the
    differing field instead of failing the run."""
    data = {"chunks": [{"id": "a", "score": 0.9}], "budget": 1}
    got = blame("assemble", data, {"ok": None}, "wrong", "$", {"context": "", "ids": ["a"]})
    assert got == (
        [],
        "cannot tell which rule is broken (no known mistake gives this answer and no "
        "rule's check separates the answers); first difference at $: expected null, "
        'got {"context": "", "ids": ["a"]}',
    )


# -- the models of the mistakes a port makes, one rule each --------------------------------------


def _split_blame(text: str, max_tokens: int, parts: list[tuple[str, int]]) -> tuple[list[str], str]:
    data = {"doc_id": "d", "title": "T", "text": text, "max_tokens": max_tokens}
    expected = {"ok": _chunks(data, _split_model(text, max_tokens))}
    return blame("split_section", data, expected, "wrong", "$", _chunks(data, parts))


@pytest.mark.parametrize(
    ("text", "max_tokens", "parts", "rule"),
    [
        ("", 1, [], "SPLIT-10"),  # a blank text gives no chunk
        (" a ", 1, [(" a ", 1)], "SPLIT-1"),  # the whole text is not stripped
        ("a \n\n b\n\nc d e", 2, [("a\n\nb", 2), ("c d", 2), ("e", 1)], "SPLIT-3"),
        ("a b", 2, [("a", 1), ("b", 1)], "SPLIT-1"),  # fits with <
        ("a\n\nb c d\n\ne", 2, [("a", 1), ("b c", 2), ("d\n\ne", 2)], "SPLIT-8"),
    ],
)
def test_split_mistakes_blame_their_rule(
    text: str, max_tokens: int, parts: list[tuple[str, int]], rule: str
) -> None:
    """CONF-9: each split_section mistake is blamed on the rule it breaks, not SPLIT-4/7."""
    rules, why = _split_blame(text, max_tokens, parts)
    assert rule in rules, why
    assert "a port gives that" in why


def test_split_literal_next_separator_is_split_7() -> None:
    """SPLIT-7's mistake: an oversized piece of a "\\n\\n" split that has no "\\n" is kept
    whole instead of being split on " "."""
    assert _split_model("a b c\n\nd", 2, literal_next=True) == [("a b c", 3), ("d", 1)]
    rules, _ = _split_blame("a b c\n\nd", 2, [("a b c", 3), ("d", 1)])
    assert rules == ["SPLIT-7"]


def test_a_text_difference_no_model_gives_cannot_tell() -> None:
    """CONF-9: a text that no known mistake produces blames no rule, and says so."""
    rules, why = _split_blame("a b c", 2, [("a", 1), ("b c", 2)])
    assert rules == []
    assert why.startswith("cannot tell which rule is broken")


def test_assemble_off_by_one_budget_is_pack_7() -> None:
    """PACK-7: ``tokens < room`` (not <=) is the off-by-one budget, not PACK-8's null."""
    data = {"chunks": [_c("a", 0.9, 2)], "budget": 2}
    assert _assemble_model(data, fits_lt=True) is None
    got = blame("assemble", data, {"ok": _assemble_model(data)}, "wrong", "$", None)
    assert got[0] == ["PACK-7"]


def test_assemble_subtraction_comparator_is_haz_7() -> None:
    """HAZ-7: with ``b.score - a.score`` two equal infinities keep their input order."""
    data = {"chunks": [_c("b", "Infinity"), _c("a", "Infinity")], "budget": 5}
    assert _ids(_assemble_model(data, key="subtraction")) == ["b", "a"]
    assert _ids(_assemble_model(data)) == ["a", "b"]
    got = blame(
        "assemble", data, {"ok": _assemble_model(data)}, "wrong", "$.ids[0]",
        _assemble_model(data, key="subtraction"),
    )  # fmt: skip
    assert got[0] == ["PACK-1", "PACK-5"]
    assert "subtracting comparator" in got[1]


def test_assemble_signed_zero_and_locale_models() -> None:
    """HAZ-6, HAZ-3: -0.0 after 0.0 with a sign-aware order; localeCompare puts a before B."""
    zeros = {"chunks": [_c("a", -0.0), _c("b", 0.0)], "budget": 5, "min_score": 0.0}
    assert _ids(_assemble_model(zeros)) == ["a", "b"]
    assert _ids(_assemble_model(zeros, key="signed-zero")) == ["b", "a"]
    cases = {"chunks": [_c("a"), _c("B")], "budget": 5}
    assert _ids(_assemble_model(cases)) == ["B", "a"]
    assert _ids(_assemble_model(cases, key="locale")) == ["a", "B"]


def test_a_vector_s_declared_rules_win() -> None:
    """CONF-9: a vector that declares PACK-3 is blamed PACK-3, not the field's PACK-9."""
    data = {"chunks": [_c("a", 0.9)], "budget": 5}
    expected = {"ok": _assemble_model(data)}
    wrong = {"context": "[a] T\nxx", "ids": ["a"]}
    assert blame("assemble", data, expected, "wrong", "$.context", wrong)[0] == ["PACK-9"]
    rules, why = blame("assemble", data, expected, "wrong", "$.context", wrong, ["PACK-3"])
    assert rules == ["PACK-3"]
    assert why.endswith("blamed on the vector's rules")
    both = blame("assemble", data, expected, "wrong", "$.context", wrong, ["PACK-9", "PACK-1"])
    assert both[0] == ["PACK-9"]


def test_tied_reordering_is_pack_2() -> None:
    """PACK-2: the same ids in another order, the first two out of order tied in score."""
    data = {"chunks": [_c("a"), _c("b")], "budget": 5}
    got = blame(
        "assemble", data, {"ok": _assemble_model(data)}, "wrong", "$.ids[0]",
        {"context": "[b] T\nx\n[a] T\nx", "ids": ["b", "a"]},
    )  # fmt: skip
    assert got == (["PACK-2"], "first difference at $.ids[0]")


def test_words_in_doubles_is_words_1() -> None:
    """HAZ-11: ``start + i`` in doubles prints 2**53 twice; blamed on WORDS-1."""
    data = {"n": 3, "start": 2**53 - 1}
    actual = "w9007199254740991 w9007199254740992 w9007199254740992"
    rules, why = blame("words", data, {"ok": "x"}, "wrong", "$", actual)
    assert rules == ["WORDS-1"]
    assert "doubles" in why


def test_missed_checks_name_their_hazard() -> None:
    """HAZ-4, HAZ-6, HAZ-9: an answer where an error was due says which check is missing;
    a hash of a text with a lone surrogate is recognised as Node's U+FFFD hash."""
    import hashlib

    due = {"error": {"kind": "ValueError", "argument": "text"}}
    node = hashlib.sha256("a\ufffd".encode()).hexdigest()
    _, why = blame("hash_text", {"text": "a\ud800"}, due, "wrong", "error", node)
    assert "Node's hash of U+FFFD" in why
    due = {"error": {"kind": "TypeError", "argument": "chunks[0].tokens"}}
    data = {"chunks": [_c("a", 0.5, -0.0)], "budget": 1}  # type: ignore[arg-type]
    assert "-0.0" in blame("assemble", data, due, "wrong", "error", None)[1]
    due = {"error": {"kind": "ValueError", "argument": "start"}}
    assert "2**53 - 1" in blame("words", {"n": 1, "start": 2**53}, due, "wrong", "error", "")[1]

"""Properties of the ``subword`` counter (SCRIPT-30..SCRIPT-34, COUNT-12)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunkspec._core._graphemes import grapheme_bounds
from chunkspec._core._subwords import subword_starts
from chunkspec._counters._builtin import checked_starts
from chunkspec.counters import SubwordCounter, resolve_counter
from chunkspec.records import SourceDocument, chunk_document
from properties.strategies import MULTI_SCRIPT_PIECES
from properties.subword_model import model_spans

#: Pieces whose clusters Unicode 14 and the `regex` module agree on (no GB9c conjuncts).
_AGREED = [p for p in MULTI_SCRIPT_PIECES if "\u094d" not in p]
#: ASCII shapes that each rule of SCRIPT-31 and SCRIPT-33 cuts: case turns, digit runs,
#: punctuation, line breaks of every kind, base64 and URLs.
_ASCII = [
    "HTTPServer",
    "parseJSON",
    "aGVsbG8=",
    "12345",
    "2026-12-07",
    "https://x.io/a_b?c=1",
    "Hello",
    "world",
    "a",
    "Z",
    "implementation",
    "...",
    "(x)",
    " ",
    "  ",
    "\n",
    "\r\n",
    "\x0b",
    "\x1c",
    "\u2028",
    "\u0085",
    "\t",
    "caf",
    "e\u0301",
    "\u00a0",
    "x\u200dy",
]
_TEXTS = st.lists(
    st.sampled_from(_AGREED + _ASCII + ["\u10d2\u10d0", "\u1230\u120b", "\ud55c", "\U0001f600"]),
    max_size=40,
).map("".join)


@given(_TEXTS)
def test_spans_match_the_model(text: str) -> None:
    """SCRIPT-30..SCRIPT-33, COUNT-12: the units are the literal model's, and count is their
    number (COUNT-2), on every script, ASCII shape and line break."""
    counter = SubwordCounter()
    spans = counter.token_spans(text)
    assert spans == model_spans(text)
    assert counter.count(text) == len(spans)


@given(_TEXTS)
def test_starts_are_the_spans_starts(text: str) -> None:
    """SCRIPT-30, TRUST-51: the compact starts the windows read are the model spans' starts,
    and checked_starts takes them for the counter."""
    want = [start for start, _ in model_spans(text)]
    assert list(subword_starts(text)) == want
    assert list(checked_starts(SubwordCounter(), text)) == want


@given(st.text(alphabet="aAzZ09 .,-_/:\n\r\t\x0b\x1c\x1f\x00\x7f(){}", max_size=80))
def test_ascii_count_matches_spans(text: str) -> None:
    """SCRIPT-31, SCRIPT-33: the count of ASCII text (found without spans) is the number of
    spans the model gives."""
    assert SubwordCounter().count(text) == len(model_spans(text))


@given(_TEXTS)
def test_spans_hold_every_character_and_no_cluster_is_cut(text: str) -> None:
    """SCRIPT-30, SCRIPT-32: starts never decrease (COUNT-3), spans hold no whitespace, cover
    every other character, and start and end at grapheme-cluster boundaries."""
    spans = SubwordCounter().token_spans(text)
    bounds = set(grapheme_bounds(text))
    assert all(a < b for a, b in spans)
    assert all(spans[k][0] <= spans[k + 1][0] for k in range(len(spans) - 1))
    covered = {i for a, b in spans for i in range(a, b)}
    assert covered == {i for i, ch in enumerate(text) if not ch.isspace()}
    non_ascii = [(a, b) for a, b in spans if not text[a].isascii()]
    assert all(a in bounds and b in bounds for a, b in non_ascii)


@given(
    _TEXTS,
    st.sampled_from(["heading", "structural", "window", "pages"]),
    st.integers(1, 24),
)
def test_chunks_are_measured_and_bounded_in_subwords(text: str, strategy: str, size: int) -> None:
    """SCRIPT-34, RECORD-5: every strategy takes ``counter="subword"``; each record names it,
    its tokens are the counter's count of its text, offsets are exact, and a record over
    the budget is marked oversized (RECORD-14)."""
    document = SourceDocument(doc_id="d", text=text, format="markdown", title="T")
    counter = resolve_counter("subword")
    for r in chunk_document(document, strategy, max_tokens=size, counter="subword"):
        assert r.counter == "subword"
        assert r.text == r.prefix + text[r.start : r.end]
        assert r.tokens == counter.count(r.text)
        assert r.oversized == (r.tokens > size)  # RECORD-14

"""Properties of units, grapheme clusters and split points in every script (SCRIPT rules)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.counters import SMALL_MERGES, byte_encoding, word_level

from chunkspec._core._graphemes import grapheme_bounds
from chunkspec._core._units import CLUSTER_SCRIPT_RANGES
from chunkspec.counters import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    UnicodeCounter,
    WhitespaceCounter,
    resolve_counter,
)
from chunkspec.records import SourceDocument, chunk_document
from properties.strategies import MULTI_SCRIPT_PIECES, multi_script_texts

regex = pytest.importorskip("regex")

#: Pieces whose clusters Unicode 14 and the `regex` module (a later Unicode) agree on:
#: no virama before a consonant (GB9c, Unicode 15.1).
_AGREED = [p for p in MULTI_SCRIPT_PIECES if "\u094d" not in p]


def model_clusters(text: str) -> list[int]:
    """The cluster boundaries by the `regex` module's ``\\X`` (an independent UAX #29)."""
    return [0, *(m.end() for m in regex.finditer(r"\X", text))]


def model_units(text: str) -> list[str]:
    """SCRIPT-3 literally: whitespace words; in a word with a SCRIPT-2 character, each
    cluster starting with one is a unit and each run of other clusters one unit."""

    def wide(ch: str) -> bool:
        return any(a <= ord(ch) <= b for a, b in CLUSTER_SCRIPT_RANGES)

    units: list[str] = []
    for word in text.split():
        if not any(wide(ch) for ch in word):
            units.append(word)
            continue
        run = ""
        for cluster in regex.findall(r"\X", word):
            if wide(cluster[0]):
                if run:
                    units.append(run)
                    run = ""
                units.append(cluster)
            else:
                run += cluster
        if run:
            units.append(run)
    return units


@given(st.lists(st.sampled_from(_AGREED), max_size=30).map("".join))
def test_grapheme_bounds_match_uax29(text: str) -> None:
    """SCRIPT-4, SCRIPT-5: the clusters are UAX #29's (GB3..GB13, GB999; emoji ZWJ
    sequences, flags, jamo and marks stay whole), as an independent implementation cuts them."""
    assert grapheme_bounds(text) == model_clusters(text)


@given(st.lists(st.sampled_from(_AGREED), max_size=30).map("".join))
def test_units_match_model(text: str) -> None:
    """SCRIPT-1, SCRIPT-2, SCRIPT-3, COUNT-11: the unicode counter's tokens are the model's
    units, with exact code-point spans."""
    counter = UnicodeCounter()
    spans = counter.token_spans(text)
    assert [text[a:b] for a, b in spans] == model_units(text)
    assert counter.count(text) == len(spans)
    assert resolve_counter("unicode").count(text) == len(spans)


@given(st.text(alphabet="ab .,!?\n\t\u00a0\u00e9-'\u0627\u0644\u0939\u093f", max_size=60))
def test_units_are_whitespace_words_without_cluster_scripts(text: str) -> None:
    """SCRIPT-3, SCRIPT-6: on text of scripts that use spaces the units are the whitespace
    words, so the default counts alike under both names."""
    assert UnicodeCounter().token_spans(text) == WhitespaceCounter().token_spans(text)


@given(multi_script_texts, st.sampled_from(["heading", "structural", "window", "pages"]))
def test_whitespace_means_unicode_on_cluster_scripts(text: str, strategy: str) -> None:
    """SCRIPT-6: the name whitespace counts unicode units on a document with a SCRIPT-2
    character, and stays whitespace on any other; the record names the counter."""
    document = SourceDocument(doc_id="d", text=text, format="text", title="T")
    records = chunk_document(document, strategy, max_tokens=6, counter="whitespace")
    has = any(any(a <= ord(ch) <= b for a, b in CLUSTER_SCRIPT_RANGES) for ch in text)
    for r in records:
        assert r.counter == ("unicode" if has else "whitespace")
        assert resolve_counter(r.counter).count(r.text) == r.tokens


@given(multi_script_texts)
def test_recursive_keeps_whitespace_words(text: str) -> None:
    """SCRIPT-7: seed 000's recursive strategy counts whitespace words on every script."""
    document = SourceDocument(doc_id="d", text=text, format="text", title="T")
    for r in chunk_document(document, "recursive", max_tokens=3):
        assert r.counter == "whitespace"
        assert r.tokens == len(r.text.split())
        # SPLIT-5: only a piece holding none of seed 000's separators may pass the budget
        # (U+3000 is whitespace to the count but no separator).
        assert r.tokens <= 3 or not any(sep in r.text for sep in ("\n\n", "\n", " "))


_COUNTERS = ["whitespace", "unicode", "chars1", "chars4"]


@given(
    multi_script_texts,
    st.sampled_from(["heading", "structural"]),
    st.sampled_from(_COUNTERS),
    st.integers(1, 12),
    st.booleans(),
)
def test_over_budget_only_for_one_cluster(
    text: str, strategy: str, counter: str, size: int, markdown: bool
) -> None:
    """SCRIPT-8: heading and structural cut over-budget prose at sentence ends, units, then
    clusters: a body chunk exceeds max_tokens only when it is one grapheme cluster, and
    every chunk starts and ends at a cluster boundary of the document."""
    fmt = "markdown" if markdown else "text"
    document = SourceDocument(doc_id="d", text=text, format=fmt, title="T")
    bounds = set(grapheme_bounds(text))
    for r in chunk_document(document, strategy, max_tokens=size, counter=counter):
        assert r.text == r.prefix + text[r.start : r.end]  # offsets exact
        if r.kind == "heading":
            continue
        assert r.start in bounds, r.start
        assert r.end in bounds, r.end
        if r.tokens > size:
            assert grapheme_bounds(r.text) == [0, len(r.text)], r.text


@given(multi_script_texts, st.sampled_from(["window", "pages"]), st.integers(1, 12))
def test_windows_of_units_cut_at_clusters(text: str, strategy: str, size: int) -> None:
    """SCRIPT-8: with unicode units (the default on SCRIPT-2 text) window and pages cut at
    unit starts: every chunk starts and ends at a cluster boundary of the document, and
    exceeds max_tokens never (a unit counts one)."""
    document = SourceDocument(doc_id="d", text=text, format="text", title="T")
    bounds = set(grapheme_bounds(text))
    for r in chunk_document(document, strategy, max_tokens=size, counter="unicode"):
        assert r.text == text[r.start : r.end]
        assert r.start in bounds
        assert r.end in bounds
        assert r.tokens <= size
        assert r.tokens == UnicodeCounter().count(r.text)  # RECORD-14: the window's units


def test_char_estimate_is_not_cluster_aware() -> None:
    """SCRIPT-8: a literal reminder that chars{N} counts code points, so one cluster of
    three code points is over a budget of 2 chars1 tokens and is kept whole, flagged."""
    text = "a\u0308\u0323"
    assert CharEstimateCounter(1).count(text) == 3
    document = SourceDocument(doc_id="d", text=text, format="text", title="T")
    (record,) = chunk_document(document, "heading", max_tokens=2, counter="chars1")
    assert record.text == text
    assert record.oversized


@given(
    multi_script_texts,
    st.sampled_from(["heading", "structural"]),
    st.integers(1, 12),
    st.sampled_from([(), SMALL_MERGES]),
)
def test_model_tokens_hold_the_budget(
    text: str, strategy: str, size: int, merges: tuple[bytes, ...]
) -> None:
    """SCRIPT-8 with a byte-level BPE (tiktoken): on CJK, Thai, Arabic and emoji every body
    record's tokens <= max_tokens unless the record is one grapheme cluster, offsets exact,
    and every cut at a cluster boundary."""
    counter = TiktokenCounter(byte_encoding(merges))
    document = SourceDocument(doc_id="d", text=text, format="markdown", title="T")
    bounds = set(grapheme_bounds(text))
    for r in chunk_document(document, strategy, max_tokens=size, counter=counter):
        assert r.text == r.prefix + text[r.start : r.end]
        if r.kind in ("heading", "code", "table"):  # SCRIPT-8 splits prose; MD-7 never code
            continue
        assert r.start in bounds
        assert r.end in bounds
        assert r.tokens <= size or grapheme_bounds(r.text) == [0, len(r.text)]


_BIDI = st.sampled_from(
    [
        "\u2067",
        "\u2069",
        "\u202b",
        "\u202c",
        "\u200f",
        "\u061c",
        "مرحبا",
        "שלום",
        "abc",
        "2.0",
        " ",
        ". ",
    ]
)


@given(
    st.lists(_BIDI, max_size=30).map("".join),
    st.sampled_from(["heading", "structural", "window", "pages"]),
    st.integers(1, 6),
)
def test_bidi_controls_keep_exact_offsets(text: str, strategy: str, size: int) -> None:
    """SCRIPT-9: right-to-left text with bidi controls keeps exact offsets, and every control
    stays in the unit of the word it touches (no cut between a control and its letter)."""
    document = SourceDocument(doc_id="d", text=text, format="text", title="T")
    units = UnicodeCounter().token_spans(text)
    inside = {k for a, b in units for k in range(a + 1, b)}
    for r in chunk_document(document, strategy, max_tokens=size, counter="unicode"):
        assert r.text == r.prefix + text[r.start : r.end]
        assert r.start not in inside
        assert r.end not in inside


_WINDOW_COUNTERS = [
    "whitespace",
    "unicode",
    "subword",
    "chars4",
    "bytes",
    "small-bpe",
    "word-level",
]


def _window_counter(name: str) -> object:
    """A counter by name: the built-in names, a byte-level BPE without and with merges (the
    tiny tiktoken encoding's ranks), a Hugging Face word-level tokenizer."""
    if name == "bytes":
        return TiktokenCounter(byte_encoding())
    if name == "small-bpe":
        return TiktokenCounter(byte_encoding(SMALL_MERGES))
    if name == "word-level":
        return HuggingFaceCounter(word_level())
    return name


@given(
    multi_script_texts,
    st.sampled_from(["window", "pages"]),
    st.sampled_from(_WINDOW_COUNTERS),
    st.integers(1, 12),
)
def test_windows_never_cut_a_cluster_and_hold_the_budget(
    text: str, strategy: str, counter: str, size: int
) -> None:
    """SCRIPT-10, SCRIPT-11, PAGE-7, PAGE-8: with every counter, window and pages records
    start and end at a cluster boundary (or right after whitespace), their tokens are at
    most max_tokens unless the (stripped) text is one grapheme cluster, and offsets are
    exact."""
    document = SourceDocument(doc_id="d", text=text, format="text", title="T")
    bounds = set(grapheme_bounds(text))
    records = chunk_document(
        document,
        strategy,
        max_tokens=size,
        overlap_tokens=size // 3,
        counter=_window_counter(counter),  # type: ignore[arg-type]
    )
    for r in records:
        assert r.text == text[r.start : r.end]
        for edge in (r.start, r.end):
            assert edge in bounds or text[edge - 1].isspace(), (edge, r.text)
        core = r.text.strip()
        assert r.tokens <= size or len(grapheme_bounds(core)) <= 2, r.text  # one cluster
        assert r.oversized == (r.tokens > size)

"""Properties of split_section (docs/spec.md section 3)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkspec._core._split_section as split_module
from chunkspec import Chunk, split_section
from chunkspec._core._split_section import _split_sparse
from chunkspec.core import SEPARATORS

from .models import model_count, model_hash, model_split_texts
from .strategies import (
    WS1,
    documents,
    max_tokens,
    one_line_texts,
    realistic_texts,
    split_texts,
)

#: Sizes for the word-level paths' blocks (characters) and flushes (pieces), drawn so small
#: that a short text is read in many blocks and packed in many flushes; None: the defaults.
blockings = st.one_of(st.none(), st.tuples(st.integers(1, 12), st.integers(1, 6)))


@contextmanager
def _blocking(sizes: tuple[int, int] | None) -> Iterator[None]:
    """Run split_section's word-level paths with ``sizes`` = (block, flush), if given."""
    saved = split_module._BLOCK, split_module._FLUSH
    if sizes is not None:
        split_module._BLOCK, split_module._FLUSH = sizes
    try:
        yield
    finally:
        split_module._BLOCK, split_module._FLUSH = saved


@given(split_texts, max_tokens, blockings)
def test_agrees_with_literal_model(text: str, limit: int, sizes: tuple[int, int] | None) -> None:
    """SPLIT-1..SPLIT-8: the fast splitter equals the seed read literally (re-counting),
    also when its word-level paths read the text in tiny blocks and pack every few pieces
    (a chunk carried from one block to the next, SPLIT-1 decided at the end)."""
    with _blocking(sizes):
        chunks = split_section("d", "T", text, limit)
    assert [c.text for c in chunks] == model_split_texts(text, limit)


@given(documents(), st.integers(1, 6))
def test_agrees_with_model_on_documents(text: str, limit: int) -> None:
    """SPLIT-4, SPLIT-7, SPLIT-8: agreement on structured documents with small budgets."""
    assert [c.text for c in split_section("d", "T", text, limit)] == model_split_texts(text, limit)


@given(realistic_texts(), st.one_of(st.integers(1, 12), max_tokens), blockings)
def test_agrees_with_model_on_realistic_text(
    text: str, limit: int, sizes: tuple[int, int] | None
) -> None:
    """SPLIT-1..SPLIT-8, WS-1: long runs of words with non-ASCII letters and rare tabs,
    NBSPs, CRLFs and other WS-1 code points give the literal model's chunks, also read in
    tiny blocks and packed every few pieces."""
    with _blocking(sizes):
        chunks = split_section("d", "T", text, limit)
    assert [c.text for c in chunks] == model_split_texts(text, limit)


@given(
    st.lists(
        st.text(st.sampled_from(["a", "é", "\U0001f600"]), min_size=1, max_size=2), max_size=40
    ),
    st.sampled_from(list(WS1)),
    st.integers(1, 5),
)
def test_every_ws1_code_point_between_words(words: list[str], space: str, limit: int) -> None:
    """WS-1, SPLIT-2..SPLIT-5: words glued by spaces with one WS-1 code point among them
    (every one of the 29 is drawn) split as the literal model splits them."""
    text = " ".join(words[: len(words) // 2]) + space + " ".join(words[len(words) // 2 :])
    assert [c.text for c in split_section("d", "T", text, limit)] == model_split_texts(text, limit)


@given(split_texts, max_tokens)
def test_words_preserved_in_order(text: str, limit: int) -> None:
    """SPLIT-3, SPLIT-4, SPLIT-7: the words of all chunks in order equal text.split()."""
    chunks = split_section("d", "T", text, limit)
    assert [w for c in chunks for w in c.text.split()] == text.split()


@given(split_texts, max_tokens)
def test_over_budget_only_without_separator(text: str, limit: int) -> None:
    """SPLIT-5: a chunk exceeds max_tokens only when its text contains no separator."""
    for chunk in split_section("d", "T", text, limit):
        if chunk.tokens > limit:
            assert not any(sep in chunk.text for sep in SEPARATORS), chunk


@given(split_texts, max_tokens, st.sampled_from(["d", "", "a:b", "\U0001f600"]), st.text())
def test_chunk_fields(text: str, limit: int, doc_id: str, title: str) -> None:
    """SPLIT-9: ids doc_id:0..n-1; tokens, content_hash, score consistent; texts stripped."""
    chunks = split_section(doc_id, title, text, limit)
    assert chunks, "never an empty list"
    for n, chunk in enumerate(chunks):
        assert type(chunk) is Chunk
        assert chunk.id == f"{doc_id}:{n}"
        assert (chunk.doc_id, chunk.title, chunk.score) == (doc_id, title, 0.0)
        assert chunk.text == chunk.text.strip()
        assert chunk.tokens == model_count(chunk.text)
        assert chunk.content_hash == model_hash(chunk.text)


@given(split_texts, max_tokens)
def test_blank_text_is_the_only_empty_chunk(text: str, limit: int) -> None:
    """SPLIT-10: blank text gives exactly one empty 0-token chunk; otherwise none is empty."""
    chunks = split_section("d", "T", text, limit)
    if text.strip() == "":
        assert [(c.text, c.tokens) for c in chunks] == [("", 0)]
    else:
        assert all(c.text and c.tokens > 0 for c in chunks)


@given(split_texts, max_tokens)
def test_fits_whole_is_one_chunk(text: str, limit: int) -> None:
    """SPLIT-1: a text with at most max_tokens tokens is exactly one chunk, stripped."""
    chunks = split_section("d", "T", text, limit)
    if model_count(text) <= limit:
        assert [c.text for c in chunks] == [text.strip()]
    else:
        assert len(chunks) >= 2 or not any(sep in chunks[0].text for sep in SEPARATORS)


@given(
    st.lists(st.text(alphabet=st.sampled_from(["a", "b", "é"]), min_size=1, max_size=3)),
    st.sampled_from(SEPARATORS),
    st.integers(1, 8),
)
def test_greedy_on_one_level(tokens: list[str], sep: str, limit: int) -> None:
    """SPLIT-4: on one level of single-token pieces, each chunk takes max_tokens pieces."""
    text = sep.join(tokens)
    expected = [sep.join(tokens[i : i + limit]) for i in range(0, len(tokens), limit)]
    assert [c.text for c in split_section("d", "T", text, limit)] == (expected or [""])


@given(
    st.lists(
        st.text(alphabet=st.sampled_from(["a", "b", "é"]), min_size=1, max_size=3), max_size=12
    ),
    st.lists(st.sampled_from(["\n", "\r\n", " ", "\r", "\n\n"]), min_size=12, max_size=12),
    st.integers(1, 5),
)
def test_no_newline_normalisation(tokens: list[str], glue: list[str], limit: int) -> None:
    """SPLIT-11: text is split as given: "\\r" survives inside chunks, never rewritten.

    With single separators between tokens no piece is blank, so every chunk is a substring
    of the source and carries its "\\r" characters unchanged.
    """
    text = "".join(token + glue[i] for i, token in enumerate(tokens))
    for chunk in split_section("d", "T", text, limit):
        assert chunk.text in text


@given(split_texts, st.integers(1, 8))
def test_separator_additivity(text: str, limit: int) -> None:
    """SPLIT-6: count_tokens(a + sep + b) == count_tokens(a) + count_tokens(b)."""
    half = len(text) // 2
    left, right = text[:half], text[half:]
    for sep in SEPARATORS:
        assert model_count(left + sep + right) == model_count(left) + model_count(right)


@given(split_texts, max_tokens)
def test_deterministic(text: str, limit: int) -> None:
    """SPLIT-13: equal inputs give equal results; the function keeps no state."""
    first = split_section("d", "T", text, limit)
    split_section("e", "U", text + " z", limit)
    assert split_section("d", "T", text, limit) == first


@given(
    st.one_of(
        st.integers(max_value=0),
        st.integers(min_value=2**53),
        st.booleans(),
        st.floats(),
        st.none(),
        st.text(max_size=2),
    )
)
def test_bad_max_tokens_rejected(limit: object) -> None:
    """SPLIT-12, PORT-1: max_tokens outside int [1, 2**53-1] raises naming max_tokens."""
    with pytest.raises((TypeError, ValueError), match="max_tokens") as info:
        split_section("d", "T", "a b", limit)  # type: ignore[arg-type]
    expected = ValueError if isinstance(limit, int) and not isinstance(limit, bool) else TypeError
    assert isinstance(info.value, expected)


@given(
    st.text(max_size=5),
    st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"]),
    st.text(max_size=5),
    st.sampled_from(["doc_id", "title", "text"]),
)
def test_lone_surrogates_rejected(before: str, lone: str, after: str, where: str) -> None:
    """SPLIT-12, PORT-2: a lone surrogate in doc_id, title or text raises naming it."""
    args = {"doc_id": "d", "title": "T", "text": "a", "max_tokens": 1}
    args[where] = before + lone + after
    with pytest.raises(ValueError, match=where):
        split_section(**args)  # type: ignore[arg-type]


@given(
    st.lists(
        st.lists(
            st.text(alphabet=st.sampled_from(["a", "b", "é"]), min_size=1, max_size=3),
            min_size=1,
            max_size=4,
        ),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from([" ", "\n"]),
)
def test_first_separator_that_occurs_is_used(paragraphs: list[list[str]], glue: str) -> None:
    """SPLIT-2: with "\\n\\n" present, chunks are runs of whole paragraphs, never parts."""
    limit = 4  # every paragraph fits, so no paragraph is split further
    texts = [glue.join(words) for words in paragraphs]
    chunks = split_section("d", "T", "\n\n".join(texts), limit)
    position = 0
    for chunk in chunks:
        end = position + 1
        while "\n\n".join(texts[position:end]) != chunk.text:
            end += 1
            assert end <= len(texts), (chunk.text, texts)
        position = end
    assert position == len(texts)


@settings(max_examples=300)  # texts of up to ~9,000 characters against the quadratic model
@given(
    st.lists(
        st.text(st.sampled_from(["a", "é", "\U0001f600"]), min_size=1, max_size=3), max_size=60
    ),
    st.sampled_from(["\n\n", "\n", " "]),
    st.sampled_from(list(WS1)),
    st.integers(0, 60),
    st.sampled_from([0, 1500]),
    st.integers(1, 7),
)
def test_wide_text_with_a_missed_kind_of_whitespace(
    words: list[str], sep: str, space: str, where: int, padding: int, limit: int
) -> None:
    """WS-1, SPLIT-2..SPLIT-8: wide text (an emoji makes CPython store four bytes a code
    point) whose pieces look like words to the quick searches but hold another WS-1 code
    point, possibly past the first 4,096 characters: the word-level paths take back the
    chunks they appended and the literal model's chunks come out."""
    words = ["w\U0001f600"] * padding + words
    cut = min(where + padding, len(words))
    text = sep.join(words[:cut]) + (space if cut else "") + sep.join(words[cut:])
    assert [c.text for c in split_section("d", "T", text, limit)] == model_split_texts(text, limit)


@given(one_line_texts(), st.one_of(st.integers(1, 12), max_tokens), blockings)
def test_agrees_with_model_on_one_line_text(
    text: str, limit: int, sizes: tuple[int, int] | None
) -> None:
    """SPLIT-2..SPLIT-8, WS-1: one-line text with CRs after words (a CRLF document made one
    line), blank pieces (" \\r ", " \\t "), tabs glued to a word's start or end, NBSPs,
    wide letters, double and triple spaces and WS-1 code points the usual scan misses gives
    the literal model's chunks; so does the sparse word-level path itself, given every kind
    the text holds, and it takes every such text whose other whitespace is at most one
    character in 16; with tiny blocks and flushes too."""
    expected = model_split_texts(text, limit)
    found = [char for char in WS1 if char != " " and char in text]
    other = sum(map(text.count, found))
    out: list[tuple[str, int]] = []
    with _blocking(sizes):
        assert [c.text for c in split_section("d", "T", text, limit)] == expected
        result = _split_sparse(text, found, limit, out, oversized=False, check=False)
    assert result == (-1 if other * 16 > len(text) else 0)
    if result == 0:
        assert [body for body, _ in out] == expected
        assert [tokens for _, tokens in out] == [model_count(body) for body in expected]

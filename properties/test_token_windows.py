"""Properties of token_windows and the token counters (docs/spec/windows.md)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.counters import SMALL_MERGES, CountOnly, FixedSpans, byte_encoding, word_level

from chunkspec import ArgumentTypeError, ArgumentValueError, token_windows
from chunkspec.core import WHITESPACE
from chunkspec.counters import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from properties.models import model_token_ranges
from properties.strategies import sizes, window_texts

_BPE = TiktokenCounter(byte_encoding(SMALL_MERGES))
_BYTES = TiktokenCounter(byte_encoding())
_HF = HuggingFaceCounter(word_level())

#: Letters that make the small BPE merge ("the", "hello") and the word-level vocabulary hit.
_BPE_TEXT = st.text(alphabet="the lo.?!\n\u00e9\U0001f600", max_size=60)

counters = st.sampled_from(
    [WhitespaceCounter(), CharEstimateCounter(), CharEstimateCounter(3), _BPE, _BYTES, _HF]
)


@given(st.one_of(window_texts, _BPE_TEXT), sizes(), counters)
def test_windows_are_source_slices(
    text: str, so: tuple[int, int], counter: TokenSpanCounter
) -> None:
    """TOKWIN-3, TOKWIN-4, TOKWIN-6: text == source[start:end]; token ranges as seed 002."""
    size, overlap = so
    spans = counter.token_spans(text)
    windows = token_windows(text, size, overlap, counter)
    assert [(w.token_start, w.token_end) for w in windows] == model_token_ranges(
        len(spans), size, overlap
    )
    for k, w in enumerate(windows):
        assert w.index == k
        assert w.text == text[w.start : w.end]
        assert w.start == (0 if k == 0 else spans[w.token_start][0])
        assert w.end == (len(text) if w.token_end == len(spans) else spans[w.token_end][0])
    for left, right in itertools.pairwise(windows):
        assert right.token_start == left.token_end - overlap


@given(st.one_of(window_texts, _BPE_TEXT), sizes(), counters)
def test_windows_cover_the_text(text: str, so: tuple[int, int], counter: TokenSpanCounter) -> None:
    """TOKWIN-5: the windows' ranges cover [0, len(text)) whenever there is a token."""
    windows = token_windows(text, *so, counter)
    if not counter.token_spans(text):
        assert windows == []
        return
    assert windows[0].start == 0
    assert windows[-1].end == len(text)
    for left, right in itertools.pairwise(windows):
        assert left.start <= right.start <= left.end


@given(window_texts, sizes(), st.sampled_from([WhitespaceCounter(), CharEstimateCounter()]))
def test_additive_counters_count_the_window(
    text: str, so: tuple[int, int], counter: TokenSpanCounter
) -> None:
    """TOKWIN-7: for whitespace and chars/4, count(w.text) is the window's token count."""
    for w in token_windows(text, *so, counter):
        assert counter.count(w.text) == w.token_end - w.token_start


@given(st.one_of(window_texts, _BPE_TEXT), counters)
def test_span_contract(text: str, counter: TokenSpanCounter) -> None:
    """COUNT-2, COUNT-3: one span a token, inside the text, starts non-decreasing."""
    spans = counter.token_spans(text)
    assert len(spans) == counter.count(text)
    previous = 0
    for a, b in spans:
        assert previous <= a <= b <= len(text)
        previous = a


#: Every str.isspace() character, plus a zero-width space and U+FEFF, which are not spaces.
_SPACY = st.text(alphabet=st.sampled_from([*sorted(WHITESPACE), "a", "\u00e9", "\u200b", "\ufeff"]))


@given(st.one_of(window_texts, _SPACY))
def test_whitespace_spans_are_split(text: str) -> None:
    """COUNT-4: the whitespace counter's tokens are exactly text.split()."""
    counter = WhitespaceCounter()
    assert [text[a:b] for a, b in counter.token_spans(text)] == text.split()


@given(window_texts, st.integers(1, 6))
def test_char_estimate(text: str, c: int) -> None:
    """COUNT-5: ceil(len / c) tokens, the consecutive c-character blocks."""
    counter = CharEstimateCounter(c)
    assert counter.count(text) == -(-len(text) // c)
    assert "".join(text[a:b] for a, b in counter.token_spans(text)) == text


@given(st.one_of(window_texts, _BPE_TEXT))
def test_tiktoken_spans_floor_and_ceiling(text: str) -> None:
    """COUNT-7: a token's span runs from the character of its first byte to after its last."""
    counter = _BPE
    tokens = counter.encoding.encode_ordinary(text)
    owner = [i for i, ch in enumerate(text) for _ in ch.encode("utf-8")]  # byte -> char
    expected = []
    position = 0
    for piece in counter.encoding.decode_tokens_bytes(tokens):
        expected.append((owner[position], owner[position + len(piece) - 1] + 1))
        position += len(piece)
    assert position == len(text.encode("utf-8"))
    assert counter.token_spans(text) == expected


@given(_BPE_TEXT)
def test_huggingface_spans_are_offsets(text: str) -> None:
    """COUNT-8: spans are the tokenizer's offsets without special tokens."""
    encoding = _HF.tokenizer.encode(text, add_special_tokens=False)
    assert _HF.token_spans(text) == list(encoding.offsets)
    assert _HF.count(text) == len(encoding.ids)


@given(window_texts, sizes(), st.lists(st.tuples(st.integers(-2, 70), st.integers(-2, 70))))
def test_bad_spans_rejected(text: str, so: tuple[int, int], spans: list[tuple[int, int]]) -> None:
    """TOKWIN-2, COUNT-3: spans outside the text or with decreasing starts are a ValueError."""
    starts = [a for a, _ in spans]
    valid = all(0 <= a <= b <= len(text) for a, b in spans) and starts == sorted(starts)
    if valid:
        windows = token_windows(text, *so, FixedSpans(spans))
        assert len(windows) == len(model_token_ranges(len(spans), *so))
    else:
        with pytest.raises(ArgumentValueError) as info:
            token_windows(text, *so, FixedSpans(spans))
        assert info.value.argument == "counter"


@given(window_texts, sizes())
def test_default_counter_and_count_only_counters(text: str, so: tuple[int, int]) -> None:
    """TOKWIN-1, COUNT-1: default WhitespaceCounter; a count-only counter is refused."""
    assert token_windows(text, *so) == token_windows(text, *so, WhitespaceCounter())
    with pytest.raises(ArgumentTypeError) as info:
        token_windows(text, *so, CountOnly())  # type: ignore[arg-type]
    assert info.value.argument == "counter"


@given(st.lists(st.sampled_from(["the", " hello", "<|endoftext|>", "\u00e9", "!", "\n"])))
def test_tiktoken_counts_ordinary_tokens(parts: list[str]) -> None:
    """COUNT-6: count == len(encode_ordinary(text)); special-token text is ordinary text."""
    text = "".join(parts)
    tokens = _BPE.encoding.encode_ordinary(text)
    assert _BPE.count(text) == len(tokens)
    assert b"".join(_BPE.encoding.decode_tokens_bytes(tokens)) == text.encode("utf-8")
    special = _BPE.encoding.encode_single_token("<|endoftext|>")
    assert special not in tokens


@given(st.one_of(window_texts, _SPACY), st.integers(1, 8), st.integers(1, 4))
def test_compact_starts_are_the_spans_starts(text: str, piece: int, c: int) -> None:
    """COUNT-4, COUNT-5: the windows' compact token starts of the built-in counters (read a
    piece at a time, never as pairs) are the starts of their token_spans, whatever the
    piece size (so no word is cut between pieces)."""
    import chunkspec._counters._builtin as builtin

    saved = builtin._STARTS_PIECE
    builtin._STARTS_PIECE = piece
    try:
        whitespace = WhitespaceCounter()
        got = list(builtin.checked_starts(whitespace, text))
        assert got == [a for a, _ in whitespace.token_spans(text)]
        assert [text[a:].split(maxsplit=1)[0] for a in got] == text.split()
    finally:
        builtin._STARTS_PIECE = saved
    chars = CharEstimateCounter(c)
    assert list(builtin.checked_starts(chars, text)) == [a for a, _ in chars.token_spans(text)]

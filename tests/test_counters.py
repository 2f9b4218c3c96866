"""Unit tests of the token counters (rules COUNT-1 .. COUNT-8, and the extras)."""

from __future__ import annotations

import builtins
from typing import Any

import pytest
import tokenizers

from chunkspec import (
    ArgumentTypeError,
    ArgumentValueError,
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from tests.counters import SMALL_MERGES, CountOnly, byte_encoding, word_level


def test_protocols() -> None:
    """COUNT-1: every built-in counter is a TokenSpanCounter; count-only is a TokenCounter."""
    for counter in (
        WhitespaceCounter(),
        CharEstimateCounter(),
        TiktokenCounter(byte_encoding()),
        HuggingFaceCounter(word_level()),
    ):
        assert isinstance(counter, TokenSpanCounter)
        assert isinstance(counter, TokenCounter)
    assert isinstance(CountOnly(), TokenCounter)
    assert not isinstance(CountOnly(), TokenSpanCounter)


def test_whitespace_spans() -> None:
    """COUNT-4: spans of the maximal non-whitespace runs, every isspace() char a separator."""
    text = " a\u00a0bc\u2003d\x1ce "
    assert WhitespaceCounter().token_spans(text) == [(1, 2), (3, 5), (6, 7), (8, 9)]
    assert WhitespaceCounter().count(text) == 4


def test_char_estimate() -> None:
    """COUNT-5: ceil(len/4); blocks of four; chars_per_token validated."""
    counter = CharEstimateCounter()
    assert [counter.count("x" * n) for n in range(6)] == [0, 1, 1, 1, 1, 2]
    assert counter.token_spans("abcdefghij") == [(0, 4), (4, 8), (8, 10)]
    with pytest.raises(ArgumentValueError):
        CharEstimateCounter(0)
    with pytest.raises(ArgumentTypeError):
        CharEstimateCounter(True)


def test_tiktoken_counts_and_spans() -> None:
    """COUNT-6: encode_ordinary counts; special-token text is ordinary text."""
    counter = TiktokenCounter(byte_encoding(SMALL_MERGES))
    # Pieces "the" and " hello"; no merge joins " " and "h", so " hello" is " " + "hello".
    assert counter.count("the hello") == 3
    assert counter.token_spans("the hello") == [(0, 3), (3, 4), (4, 9)]
    text = "x<|endoftext|>"
    assert counter.count(text) == len(text)  # every byte its own token, no special token


def test_tiktoken_split_character_spans() -> None:
    """COUNT-7: the two byte tokens of 'é' both span character 0."""
    counter = TiktokenCounter(byte_encoding())
    assert counter.token_spans("aé") == [(0, 1), (1, 2), (1, 2)]
    assert counter.token_spans("\U0001f600") == [(0, 1)] * 4


def test_tiktoken_encoding_type() -> None:
    """COUNT-6: the encoding is a name or an Encoding."""
    with pytest.raises(ArgumentTypeError) as info:
        TiktokenCounter(42)  # type: ignore[arg-type]
    assert info.value.argument == "encoding"


def test_tiktoken_rejects_lone_surrogates() -> None:
    """COUNT-6: text must be encodable as UTF-8."""
    with pytest.raises(ArgumentValueError):
        TiktokenCounter(byte_encoding()).count("a\ud800")


def test_huggingface_counts_and_offsets() -> None:
    """COUNT-8: word-level tokens with character offsets, no special tokens."""
    counter = HuggingFaceCounter(word_level())
    text = "hello  world. caf\u00e9"
    assert counter.count(text) == 4
    assert counter.token_spans(text) == [(0, 5), (7, 12), (12, 13), (14, 18)]


def test_huggingface_rejects_truncation_and_padding() -> None:
    """COUNT-8: a truncating or padding tokenizer would change counts."""
    tokenizer = word_level()
    tokenizer.enable_truncation(4)
    with pytest.raises(ArgumentValueError, match="truncate"):
        HuggingFaceCounter(tokenizer)
    tokenizer.no_truncation()
    tokenizer.enable_padding(length=8)
    with pytest.raises(ArgumentValueError, match="pad"):
        HuggingFaceCounter(tokenizer)
    with pytest.raises(ArgumentTypeError):
        HuggingFaceCounter("bert-base-uncased")  # type: ignore[arg-type]
    assert isinstance(tokenizer, tokenizers.Tokenizer)


def _without(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """Make ``import module`` fail as if the extra were not installed."""
    real = builtins.__import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == module or name.startswith(module + "."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)


def test_missing_tiktoken_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extras: without tiktoken, the error says which pip extra to install."""
    _without(monkeypatch, "tiktoken")
    with pytest.raises(ImportError, match=r"chunkspec\[tiktoken\]"):
        TiktokenCounter("cl100k_base")


def test_missing_tokenizers_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extras: without tokenizers, the error says which pip extra to install."""
    tokenizer = word_level()
    _without(monkeypatch, "tokenizers")
    with pytest.raises(ImportError, match=r"chunkspec\[tokenizers\]"):
        HuggingFaceCounter(tokenizer)

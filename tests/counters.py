"""Counters the window and page goldens name, built in process (no downloads)."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

import tiktoken
import tokenizers
from tokenizers import models, pre_tokenizers

from chunkspec.counters import (
    CharEstimateCounter,
    HuggingFaceCounter,
    SubwordCounter,
    TiktokenCounter,
    UnicodeCounter,
    WhitespaceCounter,
)

if TYPE_CHECKING:  # the benchmarks build these counters without pytest installed
    import pytest

#: GPT-2's pre-tokenizer pattern: words with their leading space, digits, punctuation.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def byte_encoding(merges: tuple[bytes, ...] = ()) -> tiktoken.Encoding:
    """Return a byte-level BPE: the 256 single bytes, then ``merges`` in rank order."""
    ranks = {bytes([i]): i for i in range(256)}
    for merge in merges:
        ranks[merge] = len(ranks)
    return tiktoken.Encoding(
        "test-bytes",
        pat_str=GPT2_PATTERN,
        mergeable_ranks=ranks,
        special_tokens={"<|endoftext|>": len(ranks)},
    )


#: A small BPE with merges that make word tokens with their leading space.
SMALL_MERGES = (b"th", b"the", b" t", b" th", b" the", b"he", b"ll", b"hell", b"hello", b"in")


def word_level() -> tokenizers.Tokenizer:
    """Return a WordLevel tokenizer over a tiny vocabulary, split on whitespace/punctuation."""
    vocab = {"[UNK]": 0, "hello": 1, "world": 2, ".": 3, "the": 4, "page": 5}
    tokenizer = tokenizers.Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    return tokenizer


class CountOnly:
    """A counter with ``count`` but no ``token_spans``."""

    def count(self, text: str) -> int:
        """Return the number of words."""
        return len(text.split())


class Backwards:
    """A counter whose spans break COUNT-3 (starts go backwards)."""

    def count(self, text: str) -> int:
        """Return 2."""
        return 2

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return spans whose starts decrease."""
        return [(2, 3), (0, 1)]


class FixedSpans:
    """A counter returning the spans it was given, whatever the text (to test COUNT-3's
    checks)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans

    def count(self, text: str) -> int:
        """Return the number of spans."""
        return len(self.spans)

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return the fixed spans."""
        return self.spans

    def __repr__(self) -> str:
        return f"FixedSpans({self.spans})"


def without_module(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """Make ``import module`` fail as if the extra that provides it were not installed."""
    real = builtins.__import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == module or name.startswith(module + "."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)


def named(name: str) -> object:
    """Return the counter a golden case names."""
    if name == "whitespace":
        return WhitespaceCounter()
    if name == "chars4":
        return CharEstimateCounter()
    if name == "unicode":
        return UnicodeCounter()
    if name == "subword":
        return SubwordCounter()
    if name == "utf8-bytes":
        return TiktokenCounter(byte_encoding())
    if name == "small-bpe":
        return TiktokenCounter(byte_encoding(SMALL_MERGES))
    if name == "word-level":
        return HuggingFaceCounter(word_level())
    if name == "count-only":
        return CountOnly()
    if name == "backwards":
        return Backwards()
    raise AssertionError(f"unknown counter {name!r}")

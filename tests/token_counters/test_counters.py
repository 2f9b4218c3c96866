"""Unit tests of the token counters (rules COUNT-1 .. COUNT-8, and the extras)."""

from __future__ import annotations

from typing import Any

import pytest
import tokenizers

from chunkspec import ArgumentTypeError, ArgumentValueError
from chunkspec.counters import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from tests.counters import (
    SMALL_MERGES,
    CountOnly,
    FixedSpans,
    byte_encoding,
    without_module,
    word_level,
)


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


def test_missing_tiktoken_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extras: without tiktoken, the error says which pip extra to install."""
    without_module(monkeypatch, "tiktoken")
    with pytest.raises(ImportError, match=r"chunkspec\[tiktoken\]"):
        TiktokenCounter("cl100k_base")


def test_missing_tokenizers_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extras: without tokenizers, the error says which pip extra to install."""
    tokenizer = word_level()
    without_module(monkeypatch, "tokenizers")
    with pytest.raises(ImportError, match=r"chunkspec\[tokenizers\]"):
        HuggingFaceCounter(tokenizer)


# --- Exact errors, names and plumbing (COUNT rules; found by mutation testing) --------------


class _Recorder:
    """Stands in for ``tiktoken.get_encoding``: records the names asked for."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.encoding = byte_encoding()

    def __call__(self, name: str) -> Any:
        self.names.append(name)
        return self.encoding


def test_tiktoken_name_goes_to_get_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """COUNT-6: a name is resolved by tiktoken.get_encoding; the default is cl100k_base."""
    import tiktoken

    recorder = _Recorder()
    monkeypatch.setattr(tiktoken, "get_encoding", recorder)
    assert TiktokenCounter().encoding is recorder.encoding
    assert TiktokenCounter("o200k_base").encoding is recorder.encoding
    assert recorder.names == ["cl100k_base", "o200k_base"]


def test_tiktoken_encoding_type_message() -> None:
    """COUNT-6: anything but a name or an Encoding is a TypeError naming encoding."""
    with pytest.raises(ArgumentTypeError) as info:
        TiktokenCounter(42)  # type: ignore[arg-type]
    assert (info.value.argument, info.value.value) == ("encoding", 42)
    assert str(info.value) == "encoding must be a str or a tiktoken.Encoding, got int 42"


def test_missing_extras_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extras: the ImportError names the missing module and the pip extra, exactly."""
    tokenizer = word_level()
    without_module(monkeypatch, "tiktoken")
    with pytest.raises(ImportError) as tik:
        TiktokenCounter(byte_encoding())
    assert str(tik.value) == "tiktoken is not installed: pip install 'chunkspec[tiktoken]'"
    monkeypatch.undo()
    without_module(monkeypatch, "tokenizers")
    with pytest.raises(ImportError) as hf:
        HuggingFaceCounter(tokenizer)
    assert str(hf.value) == "tokenizers is not installed: pip install 'chunkspec[tokenizers]'"


def test_huggingface_type_message() -> None:
    """COUNT-8: anything but a tokenizers.Tokenizer is a TypeError naming tokenizer."""
    with pytest.raises(ArgumentTypeError) as info:
        HuggingFaceCounter("bert")  # type: ignore[arg-type]
    assert (info.value.argument, info.value.value) == ("tokenizer", "bert")
    assert str(info.value) == "tokenizer must be a tokenizers.Tokenizer, got str 'bert'"


@pytest.mark.parametrize(
    ("setup", "problem"),
    [
        (lambda t: t.enable_truncation(4), "must not truncate (call no_truncation() first)"),
        (lambda t: t.enable_padding(length=8), "must not pad (call no_padding() first)"),
    ],
)
def test_huggingface_truncation_padding_messages(setup: Any, problem: str) -> None:
    """COUNT-8: a truncating or padding tokenizer is a ValueError naming tokenizer."""
    tokenizer = word_level()
    setup(tokenizer)
    with pytest.raises(ArgumentValueError) as info:
        HuggingFaceCounter(tokenizer)
    assert info.value.argument == "tokenizer"
    assert info.value.value is tokenizer
    assert str(info.value).startswith(f"tokenizer {problem}, got Tokenizer(")


def test_huggingface_without_special_tokens() -> None:
    """COUNT-8: count and spans leave out the special tokens a post-processor would add."""
    from tokenizers import processors

    tokenizer = word_level()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 6), ("[SEP]", 7)]
    )
    assert len(tokenizer.encode("hello world").ids) == 4  # the specials are there to leave out
    counter = HuggingFaceCounter(tokenizer)
    assert counter.tokenizer is tokenizer
    assert counter.count("hello world") == 2
    assert counter.token_spans("hello world") == [(0, 5), (6, 11)]


_ALL: list[Any] = [
    WhitespaceCounter(),
    CharEstimateCounter(),
    TiktokenCounter(byte_encoding()),
    HuggingFaceCounter(word_level()),
]


@pytest.mark.parametrize("counter", _ALL, ids=repr)
@pytest.mark.parametrize("method", ["count", "token_spans"])
def test_text_must_be_a_str(counter: Any, method: str) -> None:
    """COUNT-1: count and token_spans name ``text`` when it is not a str."""
    with pytest.raises(ArgumentTypeError) as info:
        getattr(counter, method)(b"a b")
    assert (info.value.argument, info.value.value) == ("text", b"a b")


@pytest.mark.parametrize("counter", _ALL[2:], ids=repr)
@pytest.mark.parametrize("method", ["count", "token_spans"])
def test_text_must_be_utf8(counter: Any, method: str) -> None:
    """COUNT-6, COUNT-8: the library counters refuse a lone surrogate, naming ``text``."""
    with pytest.raises(ArgumentValueError) as info:
        getattr(counter, method)("a\ud800")
    assert info.value.argument == "text"


def test_names_and_reprs() -> None:
    """COUNT-4 .. COUNT-8: each counter's name (the CLI's --counter value) and repr."""
    assert [c.name for c in _ALL] == ["whitespace", "chars4", "tiktoken", "huggingface"]
    assert repr(WhitespaceCounter()) == "WhitespaceCounter()"
    assert repr(CharEstimateCounter(3)) == "CharEstimateCounter(chars_per_token=3)"
    assert repr(TiktokenCounter(byte_encoding())) == "TiktokenCounter('test-bytes')"
    assert repr(HuggingFaceCounter(word_level())).startswith("HuggingFaceCounter(Tokenizer(")


@pytest.mark.parametrize(
    ("spans", "bad", "at"),
    [
        ([(-1, 1)], (-1, 1), 0),  # starts before the text
        ([(0, 5)], (0, 5), 0),  # ends after the text
        ([(2, 1)], (2, 1), 0),  # ends before it starts
        ([(1, 1), (0, 0), (2, 2)], (0, 0), 1),  # a start goes back by one
        # valid spans first (empty, ending at len(text), starting where the last one did)
        ([(0, 0), (0, 3), (1, 1), (3, 2)], (3, 2), 3),
    ],
)
def test_bad_spans_are_reported(spans: list[tuple[int, int]], bad: object, at: int) -> None:
    """COUNT-3, TOKWIN-2: the first bad span is named, with its index and the text length."""
    from chunkspec import token_windows

    counter = FixedSpans(spans)
    with pytest.raises(ArgumentValueError) as info:
        token_windows("abc", 2, 0, counter)
    assert (info.value.argument, info.value.value) == ("counter", counter)
    assert str(info.value) == (
        f"counter returned a bad token span {bad} at token {at} for a text of length 3 "
        f"(spans must lie in the text with starts non-decreasing), got {counter!r}"
    )


def test_good_spans_pass_the_check() -> None:
    """COUNT-3: empty spans, shared starts and a span ending at len(text) are all fine."""
    from chunkspec import token_windows

    spans = [(0, 0), (0, 1), (1, 3), (3, 3)]
    windows = token_windows("abc", 1, 0, FixedSpans(spans))
    assert [(w.start, w.end, w.text) for w in windows] == [
        (0, 0, ""),
        (0, 1, "a"),
        (1, 3, "bc"),
        (3, 3, ""),
    ]


def test_count_only_counter_message() -> None:
    """COUNT-1: a counter without token_spans is a TypeError naming counter."""
    from chunkspec import token_windows

    counter = CountOnly()
    with pytest.raises(ArgumentTypeError) as info:
        token_windows("a b", 2, 0, counter)  # type: ignore[arg-type]
    assert (info.value.argument, info.value.value) == ("counter", counter)
    assert str(info.value).startswith(
        "counter must be a TokenSpanCounter (count and token_spans; every built-in counter is "
        "one), got CountOnly <tests.counters.CountOnly object at "
    )

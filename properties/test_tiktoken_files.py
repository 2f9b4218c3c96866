"""Properties of offline tiktoken (COUNT-9, COUNT-10), against an in-memory encoding.

The tiny encoding's rank file is written once to a temporary directory; each example runs
with the network blocked and an empty tiktoken cache.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests import tiny_tiktoken
from tests.counters import SMALL_MERGES, byte_encoding
from tests.frameworks import no_network

from chunkspec import ArgumentValueError
from chunkspec.counters import TiktokenCounter
from properties.strategies import WINDOW_ALPHABET

#: Text with the merges' letters, so merged tokens are common.
texts = st.text(alphabet=WINDOW_ALPHABET + "thelino", max_size=60)


@contextmanager
def _offline() -> Iterator[Path]:
    """Register the tiny encoding, block the network, empty the cache; yield its file."""
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as folder:
        no_network(patch)
        yield tiny_tiktoken.register(patch, Path(folder))


@given(texts)
def test_file_counts_like_the_ranks(text: str) -> None:
    """COUNT-9: the encoding built from the rank file counts and locates tokens exactly as
    the same ranks built in memory (the model), and its name is the encoding's."""
    model = TiktokenCounter(byte_encoding(SMALL_MERGES))
    with _offline() as path:
        counter = TiktokenCounter(tiny_tiktoken.NAME, encoding_file=path)
        assert counter.encoding.name == tiny_tiktoken.NAME
        assert counter.count(text) == model.count(text)
        assert counter.token_spans(text) == model.token_spans(text)


@given(st.binary(max_size=40))
def test_any_other_file_is_refused(extra: bytes) -> None:
    """COUNT-9: any file but the pinned one is refused with a ValueError naming
    encoding_file (a changed file, or one that is not a rank file at all)."""
    with _offline() as path:
        other = path.with_name("other.tiktoken")
        other.write_bytes(tiny_tiktoken.rank_file() + b"\n" + extra + b" 999\n")
        with pytest.raises(ArgumentValueError) as info:
            TiktokenCounter(tiny_tiktoken.NAME, encoding_file=other)
        assert info.value.argument == "encoding_file"


@given(st.sampled_from(["cl100k_base", "o200k_base", "r50k_base", "p50k_base"]) | st.text())
def test_offline_errors_are_one_line(name: str) -> None:
    """COUNT-10: offline, any name (known or not) without a file fails with one short
    line naming encoding, never the network error's text."""
    with _offline():
        with pytest.raises(ArgumentValueError) as info:
            TiktokenCounter(name)
        message = str(info.value)
        assert info.value.argument == "encoding"
        assert "\n" not in message.replace(repr(name), "")
        assert len(message) - len(repr(name)) < 300
        assert "Max retries" not in message

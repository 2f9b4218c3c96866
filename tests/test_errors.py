"""Argument errors carry the argument and the value, and stay TypeError / ValueError."""

from __future__ import annotations

import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, assemble, render, split_section


def test_type_error_carries_argument_and_value() -> None:
    with pytest.raises(ArgumentTypeError) as info:
        split_section("d", "T", "a", "3")  # type: ignore[arg-type]
    assert isinstance(info.value, TypeError)
    assert (info.value.argument, info.value.value) == ("max_tokens", "3")
    assert str(info.value) == "max_tokens must be an int, got str '3'"


def test_value_error_carries_argument_and_value() -> None:
    with pytest.raises(ArgumentValueError) as info:
        assemble([], -5)
    assert isinstance(info.value, ValueError)
    assert (info.value.argument, info.value.value) == ("budget", -5)
    assert str(info.value) == "budget must be >= 0, got -5"


def test_long_values_are_shortened_in_the_message() -> None:
    with pytest.raises(ArgumentTypeError) as info:
        split_section("d", "T", ["x" * 500], 1)  # type: ignore[arg-type]
    assert len(str(info.value)) < 140
    assert str(info.value).endswith("...")


def test_values_up_to_80_characters_are_shown_whole() -> None:
    """A value's repr of exactly 80 characters is shown whole; 81 become 77 + '...'."""
    fits = "x" * 78  # repr adds two quotes: 80 characters
    with pytest.raises(ArgumentTypeError) as info:
        split_section("d", "T", "a", fits)  # type: ignore[arg-type]
    assert str(info.value).endswith(f"got str {fits!r}")
    longer = "x" * 79  # 81 characters: cut to 77 and marked
    with pytest.raises(ArgumentTypeError) as info:
        split_section("d", "T", "a", longer)  # type: ignore[arg-type]
    assert str(info.value).endswith("got str " + repr(longer)[:77] + "...")
    assert len(str(info.value).rsplit("got str ", 1)[1]) == 80


def test_non_chunk_items_are_named_with_their_value() -> None:
    """PACK-10, RENDER-1: a non-Chunk is reported as such, with the object itself."""
    item = ("not", "a chunk")
    with pytest.raises(ArgumentTypeError) as info:
        assemble([item], 1)  # type: ignore[list-item]
    assert (info.value.argument, info.value.value) == ("chunks[0]", item)
    assert str(info.value) == "chunks[0] must be a Chunk, got tuple ('not', 'a chunk')"
    with pytest.raises(ArgumentTypeError) as info:
        render(item)  # type: ignore[arg-type]
    assert (info.value.argument, info.value.value) == ("c", item)
    assert str(info.value) == "c must be a Chunk, got tuple ('not', 'a chunk')"

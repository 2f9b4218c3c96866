"""Argument errors carry the argument and the value, and stay TypeError / ValueError."""

from __future__ import annotations

import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, assemble, split_section


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

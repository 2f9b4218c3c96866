"""Counters by name: the ``counter`` field of a record, and the counter it names (RECORD-5)."""

from __future__ import annotations

import functools

from .._counters import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from .._errors import ArgumentTypeError, ArgumentValueError
from .._validate import require_str

__all__ = ["counter_from_name", "counter_name"]


def counter_name(counter: TokenCounter) -> str:
    """Return the record's name for ``counter`` (RECORD-5).

    ``whitespace``; ``chars{N}`` for :class:`CharEstimateCounter` (``chars4`` is seed 004's
    estimate, ``chars1`` counts code points, the measure of character windows);
    ``tiktoken:{encoding}``; ``huggingface`` (add ``:NAME`` with :func:`counter_from_name`);
    any other counter: its ``name`` attribute if it is a non-empty str, else its class name.
    """
    if isinstance(counter, WhitespaceCounter):
        return "whitespace"
    if isinstance(counter, CharEstimateCounter):
        return f"chars{counter.chars_per_token}"
    if isinstance(counter, TiktokenCounter):
        return f"tiktoken:{counter.encoding.name}"
    label = getattr(counter, "chunkspec_name", None) or getattr(counter, "name", None)
    if isinstance(label, str) and label:
        return label
    return type(counter).__name__


@functools.lru_cache(maxsize=32)
def counter_from_name(name: str) -> TokenSpanCounter:
    """Return the counter ``name`` describes, built once per process and name (RECORD-5).

    ``whitespace``, ``chars{N}`` (N >= 1), ``tiktoken`` (``cl100k_base``) or
    ``tiktoken:{encoding}``, ``huggingface:{tokenizer.json path}``. A tokenizer is never
    pickled: a worker process builds its own from the name.
    """
    require_str("counter", name)
    kind, _, argument = name.partition(":")
    if kind == "whitespace" and not argument:
        return WhitespaceCounter()
    if kind.startswith("chars") and not argument and kind[5:].isdigit() and kind[5:].isascii():
        size = int(kind[5:])
        if size >= 1:
            return CharEstimateCounter(size)
    if kind == "tiktoken":
        return TiktokenCounter(argument or "cl100k_base")
    if kind == "huggingface" and argument:
        try:
            from tokenizers import Tokenizer
        except ImportError:
            return HuggingFaceCounter(None)  # type: ignore[arg-type]  # raises the extra's hint
        counter = HuggingFaceCounter(Tokenizer.from_file(argument))
        counter_label = name
        setattr(counter, "chunkspec_name", counter_label)  # noqa: B010
        return counter
    if kind == "huggingface":
        raise ArgumentValueError("counter", "needs a tokenizer file (huggingface:PATH)", name)
    raise ArgumentValueError(
        "counter",
        "must be whitespace, chars{N}, tiktoken[:ENCODING] or huggingface:PATH",
        name,
    )


def require_counter_name(value: object) -> str:
    """Return ``value`` if it is a counter name (a str); the name is checked when built."""
    if not isinstance(value, str):
        raise ArgumentTypeError("counter", "a counter name (str)", value)
    return value

"""Counters by name: the ``counter`` field of a record, and the counter it names (RECORD-5)."""

from __future__ import annotations

import functools

from .._core._validate import require_str
from .._errors import ArgumentValueError
from ._builtin import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)

__all__ = ["counter_from_name", "counter_name"]


def counter_name(counter: TokenCounter) -> str:
    """Return the record's name for ``counter`` (RECORD-5).

    ``whitespace``; ``chars{N}`` for :class:`CharEstimateCounter` (``chars4`` is seed 004's
    estimate, ``chars1`` counts code points, the measure of character windows);
    ``tiktoken:{encoding}``; ``huggingface:{path}`` for a tokenizer loaded by
    ``HuggingFaceCounter.from_file`` (as :func:`counter_from_name` does);
    any other counter: its ``name`` attribute if it is a non-empty str, else its class name.
    """
    if isinstance(counter, WhitespaceCounter):
        return "whitespace"
    if isinstance(counter, CharEstimateCounter):
        return f"chars{counter.chars_per_token}"
    if isinstance(counter, TiktokenCounter):
        return f"tiktoken:{counter.encoding.name}"
    label = getattr(counter, "name", None)
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
        return HuggingFaceCounter.from_file(argument)
    if kind == "huggingface":
        raise ArgumentValueError("counter", "needs a tokenizer file (huggingface:PATH)", name)
    raise ArgumentValueError(
        "counter",
        "must be whitespace, chars{N}, tiktoken[:ENCODING] or huggingface:PATH",
        name,
    )

"""Counters by name: the ``counter`` field of a record, and the counter it names (RECORD-5)."""

from __future__ import annotations

import functools

from .._core._validate import require_str
from .._errors import ArgumentTypeError, ArgumentValueError
from ._builtin import (
    CharEstimateCounter,
    HuggingFaceCounter,
    SubwordCounter,
    TiktokenCounter,
    TokenCounter,
    TokenSpanCounter,
    UnicodeCounter,
    WhitespaceCounter,
)

__all__ = ["counter_from_name", "counter_name", "measure_of", "resolve_counter"]

#: RECORD-9 / CTX-8: ``whitespace`` counts ``unicode`` units on documents without spaces
#: (SCRIPT-6), so records of both names are measured in one unit and share one budget.
_ONE_MEASURE = {"whitespace": "unicode"}


def measure_of(name: str) -> str:
    """The measure a counter name stands for: names with one measure share one budget."""
    return _ONE_MEASURE.get(name, name)


def counter_name(counter: TokenCounter) -> str:
    """Return the record's name for ``counter`` (RECORD-5).

    ``whitespace``; ``chars{N}`` for :class:`CharEstimateCounter` (``chars4`` is seed 004's
    estimate, ``chars1`` counts code points, the measure of character windows);
    ``tiktoken:{encoding}``; ``huggingface:{path}`` for a tokenizer loaded by
    ``HuggingFaceCounter.from_file`` (as :func:`resolve_counter` does);
    any other counter: its ``name`` attribute if it is a non-empty str, else its class name.
    """
    if isinstance(counter, WhitespaceCounter):
        return "whitespace"
    if isinstance(counter, UnicodeCounter):
        return "unicode"
    if isinstance(counter, SubwordCounter):
        return "subword"
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

    ``whitespace``, ``unicode`` (COUNT-11), ``subword`` (COUNT-12), ``dict`` or
    ``dict:icu-{version}`` (SCRIPT-22, extra ``segment``), ``chars{N}`` (N >= 1),
    ``tiktoken`` (``cl100k_base``) or
    ``tiktoken:{encoding}``, ``huggingface:{tokenizer.json path}``. A tokenizer is never
    pickled: a worker process builds its own from the name.
    """
    require_str("counter", name)
    kind, _, argument = name.partition(":")
    if kind == "whitespace" and not argument:
        return WhitespaceCounter()
    if kind == "unicode" and not argument:
        return UnicodeCounter()
    if kind == "subword" and not argument:
        return SubwordCounter()
    if kind == "dict" and (not argument or (argument.startswith("icu-") and argument[4:])):
        from ._dictionary import DictionaryCounter  # the extra is imported when asked for

        return DictionaryCounter(argument[4:] if argument else None)
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
        "must be whitespace, unicode, dict[:icu-VERSION], chars{N}, tiktoken[:ENCODING] "
        "or huggingface:PATH",
        name,
    )


def resolve_counter(
    counter: str | TokenSpanCounter, *, encoding_file: str | None = None
) -> TokenSpanCounter:
    """Return the counter ``counter`` names, or ``counter`` itself (RECORD-5, COUNT-9).

    The one place a counter is resolved, for the library, the adapters, Arrow, Ray and the
    command line alike. ``counter`` is a name (``whitespace``, ``chars{N}``,
    ``tiktoken:{encoding}``, ``huggingface:{tokenizer.json path}``) or an object with
    ``count`` and ``token_spans``. ``encoding_file`` is a tiktoken encoding's rank file
    (``cl100k_base.tiktoken``) for offline use: it applies to ``tiktoken:`` names only, and
    registers the encoding so that the record's name (``tiktoken:NAME``) builds it again in
    any later call of the same process (COUNT-9).
    """
    if encoding_file is not None:
        require_str("encoding_file", encoding_file)
        if not isinstance(counter, str) or counter.partition(":")[0] != "tiktoken":
            raise ArgumentValueError(
                "encoding_file",
                f"applies to tiktoken counters only, not {counter!r}",
                encoding_file,
            )
        return _tiktoken_from_file(counter.partition(":")[2] or "cl100k_base", encoding_file)
    if isinstance(counter, str):
        return counter_from_name(counter)
    if callable(getattr(counter, "count", None)) and callable(
        getattr(counter, "token_spans", None)
    ):
        return counter
    raise ArgumentTypeError(
        "counter", "a counter name (str) or an object with count and token_spans", counter
    )


@functools.lru_cache(maxsize=8)
def _tiktoken_from_file(encoding: str, encoding_file: str) -> TokenSpanCounter:
    """Build a tiktoken counter from its rank file once per process (COUNT-9)."""
    built = TiktokenCounter(encoding, encoding_file=encoding_file)
    counter_from_name.cache_clear()  # the name now resolves offline
    return built

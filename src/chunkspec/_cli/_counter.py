"""The ``--counter`` options shared by the subcommands that measure in tokens."""

from __future__ import annotations

import argparse
from typing import Any

from .._counters._builtin import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from ._io import CliError

__all__ = [
    "COUNTERS",
    "add_counter_options",
    "check_counter_options",
    "counter_from",
    "make_counter",
]

#: The names ``--counter`` accepts (docs/cli.md).
COUNTERS = ("whitespace", "chars4", "tiktoken", "huggingface")


def add_counter_options(parser: Any, default: str | None) -> None:
    """Add ``--counter``, ``--encoding``, ``--encoding-file`` and ``--tokenizer``."""
    parser.add_argument(
        "--counter",
        choices=COUNTERS,
        default=default,
        help="token counter: whitespace (words), chars4 (4 characters a token), tiktoken "
        "(OpenAI BPE), huggingface (a tokenizer.json) "
        f"(default: {default or 'none, sizes in characters'})",
    )
    parser.add_argument(
        "--encoding",
        default=None,
        metavar="NAME",
        help="tiktoken encoding for --counter tiktoken (default cl100k_base)",
    )
    parser.add_argument(
        "--encoding-file",
        default=None,
        metavar="FILE",
        help="the encoding's .tiktoken rank file, for offline use (checked against the "
        "SHA-256 tiktoken pins for --encoding)",
    )
    parser.add_argument(
        "--tokenizer",
        metavar="FILE",
        help="tokenizer.json for --counter huggingface (Hugging Face tokenizers)",
    )


def counter_from(args: argparse.Namespace) -> TokenSpanCounter:
    """Return the counter the parsed ``--counter`` options describe."""
    check_counter_options(args)
    return make_counter(
        args.counter,
        args.encoding or "cl100k_base",
        args.tokenizer,
        getattr(args, "encoding_file", None),
    )


def check_counter_options(args: argparse.Namespace) -> None:
    """Refuse an option the chosen counter cannot use.

    ``--encoding`` without ``--counter tiktoken`` and ``--tokenizer`` without ``--counter
    huggingface`` are errors: they could not take effect, and ignoring them would hand back
    counts the user did not ask for.
    """
    if args.encoding is not None and args.counter != "tiktoken":
        raise CliError(f"--encoding needs --counter tiktoken, not {args.counter or 'none'}")
    if getattr(args, "encoding_file", None) is not None and args.counter != "tiktoken":
        raise CliError(f"--encoding-file needs --counter tiktoken, not {args.counter or 'none'}")
    if args.tokenizer is not None and args.counter != "huggingface":
        raise CliError(f"--tokenizer needs --counter huggingface, not {args.counter or 'none'}")


def make_counter(
    name: str,
    encoding: str = "cl100k_base",
    tokenizer: str | None = None,
    encoding_file: str | None = None,
) -> TokenSpanCounter:
    """Return the counter called ``name``; tiktoken loads ``encoding`` from
    ``encoding_file`` if given (COUNT-9), else cached or fetched (COUNT-10)."""
    if name == "whitespace":
        return WhitespaceCounter()
    if name == "chars4":
        return CharEstimateCounter()
    if name == "tiktoken":
        try:
            return TiktokenCounter(encoding, encoding_file=encoding_file)
        except ImportError as error:
            raise CliError(str(error)) from None
        except Exception as error:  # COUNT-9/COUNT-10's one-line errors, or tiktoken's own
            raise CliError(f"cannot load tiktoken encoding {encoding!r}: {error}") from None
    if name == "huggingface":
        if tokenizer is None:
            raise CliError("--counter huggingface needs --tokenizer FILE (a tokenizer.json)")
        try:
            from tokenizers import Tokenizer
        except ImportError:
            raise CliError(
                "tokenizers is not installed: pip install 'chunkspec[tokenizers]'"
            ) from None
        try:
            loaded = Tokenizer.from_file(tokenizer)
        except Exception as error:  # tokenizers raises its own Exception subclass
            raise CliError(f"{tokenizer}: cannot load tokenizer: {error}") from None
        return HuggingFaceCounter(loaded)
    raise CliError(f"unknown counter {name!r} (choose from {', '.join(COUNTERS)})")

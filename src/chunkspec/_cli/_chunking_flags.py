"""The chunking flags, defined once for every chunking command (rules OPT-1, OPT-6).

``chunk``, ``ingest``, ``split``, ``window`` and ``pages`` offer the same flags under the
same names (each only those that apply to it) and build one :class:`ChunkOptions` from
them: ``--strategy``, ``--max-tokens``, ``--overlap-tokens``, ``--counter NAME`` (RECORD-5's
names: ``whitespace``, ``chars{N}``, ``tiktoken:ENCODING``, ``huggingface:PATH``),
``--encoding-file FILE``, ``--count-headings`` and ``--split-tables``; each has that one
spelling.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import Any

from .._chunkers._options import ChunkOptions
from .._chunkers._strategies import STRATEGIES
from .._counters._builtin import TokenSpanCounter
from .._counters._registry import resolve_counter
from .._errors import ArgumentTypeError, ArgumentValueError
from ._io import CliError

__all__ = [
    "OPTION_FLAGS",
    "CommandOptions",
    "OptionFlag",
    "add_chunking_options",
    "as_flags",
    "chunk_options",
    "flag_defaults",
    "load_counter",
]


@dataclass(frozen=True, slots=True)
class OptionFlag:
    """The flag of one option that belongs to some strategies (OPT-6): ``--`` and the field's
    name with dashes, offered by every command that offers ``--strategy``; ``keywords`` are
    ``add_argument``'s (its ``help`` ends with the default)."""

    field: str
    keywords: dict[str, Any]

    @property
    def flag(self) -> str:
        """The flag as typed: ``--min-tokens`` for ``min_tokens``."""
        return "--" + self.field.replace("_", "-")


#: The strategies' own option flags, in ``--help`` order. Adding an option adds a row here;
#: each command with ``--strategy`` then offers it and passes it to ChunkOptions by name.
OPTION_FLAGS = (
    OptionFlag(
        "min_tokens",
        {
            "type": int,
            "default": None,
            "metavar": "N",
            "help": "heading and structural: merge a heading-only chunk or one under N tokens "
            "with its section's neighbour while the merge fits --max-tokens; 0 turns merging "
            "off (SIZE-2, SIZE-3) (default: max-tokens / 8, at most 64; 0 for the other "
            "strategies)",
        },
    ),
    OptionFlag(
        "budget_includes_headings",
        {
            "action": "store_true",
            "help": "heading and structural: the budget and each record's tokens cover the "
            "embedded text, heading trail + blank line + text (SIZE-8) (default: off, the "
            "text alone)",
        },
    ),
    OptionFlag(
        "count_headings",
        {
            "action": "store_true",
            "help": "structural only: the budget counts the heading trail too (MD-10) "
            "(default: off)",
        },
    ),
    OptionFlag(
        "split_tables",
        {
            "action": "store_true",
            "help": "structural only: split a table over the budget by rows, header repeated "
            "(MD-11) (default: off)",
        },
    ),
    OptionFlag(
        "split_code",
        {
            "action": "store_true",
            "help": "structural only: split a fenced code block over the budget of a known "
            "language by its syntax tree (MD-18) (default: off, the block whole)",
        },
    ),
    OptionFlag(
        "scope_prefix",
        {
            "action": "store_true",
            "help": "code only: a chunk inside a definition starts with the first lines of "
            "the definitions it is in (CODE-8) (default: off)",
        },
    ),
)

#: The option fields whose flag names differ from the field only by ``--`` and dashes.
_FIELDS = ("max_tokens", "overlap_tokens", "encoding_file", *(o.field for o in OPTION_FLAGS))


@dataclass(frozen=True, slots=True)
class CommandOptions:
    """Which chunking command this is, and its one strategy if it has one (OPT-6, OPT-9).

    ``strategy`` None offers ``--strategy`` (default ``heading``); else the command is an
    alias of ``chunk --strategy STRATEGY`` (``split``, ``window``, ``pages``). Every command
    offers every other chunking flag with the library's default (``ChunkOptions``, OPT-1):
    there is no per-command default, so one set of flags means one set of records (OPT-9).
    """

    command: str
    strategy: str | None = None


#: The library's defaults (OPT-1), which every command's flags default to (OPT-9).
_LIBRARY = ChunkOptions()


def _strategy_help() -> str:
    """One line per registered strategy (OPT-5)."""
    listed = "; ".join(f"{name}: {entry.help}" for name, entry in STRATEGIES.items())
    return f"the chunking strategy (default: heading); {listed}"


def add_chunking_options(parser: Any, spec: CommandOptions) -> None:
    """Add the chunking flags ``spec`` offers to ``parser``, each help with its default."""
    if spec.strategy is None:
        parser.add_argument(
            "--strategy", choices=tuple(STRATEGIES), default="heading", help=_strategy_help()
        )
    parser.add_argument(
        "--max-tokens",
        type=int,
        default=_LIBRARY.max_tokens,
        metavar="N",
        help=f"the budget per chunk, in tokens of --counter (default: {_LIBRARY.max_tokens})",
    )
    if spec.strategy == "pages":
        default = "max-tokens / 4 (RECORD-13)"
    else:
        default = "max-tokens / 8, at most 64; pages: max-tokens / 4 (RECORD-13)"
    parser.add_argument(
        "--overlap-tokens",
        type=int,
        default=None,
        metavar="N",
        help="tokens shared by neighbouring chunks; heading, window and pages only "
        f"(CHUNK-6) (default: {default})",
    )
    parser.add_argument(
        "--counter",
        default=None,
        metavar="NAME",
        help="the token counter (RECORD-5): subword (an estimate of model tokens in every "
        "script, on code and base64, SCRIPT-30), whitespace (words; unicode units on text "
        "without spaces, SCRIPT-6), unicode (words, an ideograph, kana, Hangul or Thai "
        "cluster a unit), dict (ICU's dictionary words of Chinese, Japanese, Thai, Lao, "
        "Khmer, Myanmar; extra chunkspec[segment]; records say dict:icu-VERSION), "
        "chars{N} (N characters a "
        "token; chars1 counts characters), tiktoken:ENCODING (e.g. tiktoken:cl100k_base), "
        "huggingface:PATH (a tokenizer.json) (default: subword; whitespace for recursive, "
        "SCRIPT-35)",
    )
    parser.add_argument(
        "--encoding-file",
        default=None,
        metavar="FILE",
        help="the .tiktoken rank file of --counter tiktoken:ENCODING, for offline use, "
        "checked against tiktoken's SHA-256 pins (COUNT-9) (default: none, tiktoken's "
        "cache or download)",
    )
    for option in OPTION_FLAGS:  # OPT-9: an alias of chunk offers them as chunk does
        parser.add_argument(option.flag, **option.keywords)


def flag_defaults() -> dict[str, Any]:
    """The chunking flags a command with ``--strategy`` offers, by field, and their defaults:
    what a run that sets none of them has in ``args`` (VIEW-1 refuses any other value)."""
    defaults: dict[str, Any] = {
        "strategy": "heading",
        "max_tokens": _LIBRARY.max_tokens,
        "overlap_tokens": None,
        "counter": None,
        "encoding_file": None,
    }
    defaults.update((o.field, o.keywords.get("default", False)) for o in OPTION_FLAGS)
    return defaults


def _flag_names() -> dict[str, str]:
    """Option field -> the flag that sets it (one spelling on every command, OPT-6)."""
    return {name: "--" + name.replace("_", "-") for name in _FIELDS}


def _flagged(message: str, flags: dict[str, str]) -> str:
    """Name the flags, not the fields, in an options error (CLI-12)."""
    for name, flag in flags.items():
        message = re.sub(rf"\b{name}\b", flag, message)
    for name in ("counter", "strategy"):
        if message.startswith(name + " "):
            message = f"--{name}{message[len(name) :]}"
    return message


def as_flags(message: str) -> str:
    """``message`` with the counter's library arguments named as the flags that set them
    (``encoding_file`` is ``--encoding-file``): a command reports a library error (CLI-12)."""
    return _flagged(message, {"encoding_file": "--encoding-file"})


def load_counter(counter: str, encoding_file: str | None) -> TokenSpanCounter:
    """The counter ``--counter`` (and ``--encoding-file``) name, built now: one that cannot
    be built is one line (CLI-1, TRUST-14)."""
    return _load(counter, encoding_file, {"encoding_file": "--encoding-file"})


def _load(counter: str, encoding_file: str | None, flags: dict[str, str]) -> TokenSpanCounter:
    """Build the counter once up front, so a missing extra or file is one line (CLI-1)."""
    kind, _, argument = counter.partition(":")
    try:
        return resolve_counter(counter, encoding_file=encoding_file)
    except ImportError as error:
        raise CliError(str(error)) from None
    except (ArgumentTypeError, ArgumentValueError) as error:
        if error.argument in ("counter", "encoding_file"):
            raise CliError(_flagged(str(error), flags)) from None
        raise _load_error(kind, argument, counter, error, flags) from None
    except Exception as error:  # tiktoken / tokenizers raise bare errors on a bad file
        raise _load_error(kind, argument, counter, error) from None


def _load_error(
    kind: str, argument: str, name: str, error: Exception, flags: dict[str, str] | None = None
) -> CliError:
    """One line for a counter that cannot be built; the library's argument names in it
    (``encoding_file``) said as the flags (COUNT-10, CLI-12)."""
    text = str(error).strip()
    reason = text.splitlines()[0][:300] if text else type(error).__name__
    if flags is not None:
        reason = _flagged(reason, flags)
    if kind == "tiktoken":
        return CliError(f"cannot load tiktoken encoding {argument or 'cl100k_base'!r}: {reason}")
    if kind == "huggingface":
        return CliError(f"{argument}: cannot load tokenizer: {reason}")
    return CliError(f"--counter {name}: {reason}")


def chunk_options(args: argparse.Namespace, spec: CommandOptions) -> ChunkOptions:
    """Return the checked :class:`ChunkOptions` the parsed flags give (OPT-6).

    An error names the flag the user typed (CLI-12).
    """
    flags = _flag_names()
    strategy = spec.strategy or args.strategy
    counter = args.counter if args.counter is not None else STRATEGIES[strategy].default_counter
    assert isinstance(counter, str)
    encoding_file = args.encoding_file
    if encoding_file is not None and counter.partition(":")[0] != "tiktoken":
        raise CliError(f"--encoding-file needs --counter tiktoken:ENCODING, not {counter}")
    _load(counter, encoding_file, flags)
    fields: dict[str, Any] = {
        "strategy": strategy,
        "max_tokens": args.max_tokens,
        "overlap_tokens": args.overlap_tokens,
        "counter": counter,
        "encoding_file": encoding_file,
    }
    fields.update((option.field, getattr(args, option.field)) for option in OPTION_FLAGS)
    try:
        options = ChunkOptions(**fields)
    except (ArgumentTypeError, ArgumentValueError) as error:
        raise CliError(_flagged(str(error), flags)) from None
    return options

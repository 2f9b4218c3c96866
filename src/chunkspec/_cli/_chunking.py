"""The one run of every chunking command: read inputs, chunk, write records (CLI-7..CLI-12)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .._chunkers._options import ChunkOptions
from .._counters._registry import counter_from_name
from .._errors import ArgumentTypeError, ArgumentValueError
from .._records._chunk_document import check_options, chunk_document
from .._records._record import ChunkRecord
from .._text._documents import InputError, SourceDocument
from ._counter import counter_from
from ._inputs import documents, find_inputs
from ._io import CliError, one_line
from ._output import Progress, check_output, write_records

__all__ = ["Chunking", "counter_option_name", "run_chunking"]

#: What a text-format command prints for one document and its records.
TextWriter = Callable[[SourceDocument, Sequence[ChunkRecord]], None]


class Chunking:
    """One chunking run's options (SCALE-6's ChunkOptions) and the flags that gave them."""

    def __init__(
        self,
        strategy: str,
        max_tokens: int,
        overlap_tokens: int | None,
        counter: str,
        *,
        count_headings: bool = False,
        split_tables: bool = False,
        flags: dict[str, str] | None = None,
    ) -> None:
        self.flags = {
            "max_tokens": "--max-tokens",
            "overlap_tokens": "--overlap-tokens",
            "counter": "--counter",
            "count_headings": "--count-headings",
            "split_tables": "--split-tables",
            **(flags or {}),
        }
        self.counter = counter
        self._fields: dict[str, Any] = {
            "strategy": strategy,
            "max_tokens": max_tokens,
            "overlap_tokens": overlap_tokens,
            "counter": counter,
            "count_headings": count_headings,
            "split_tables": split_tables,
        }
        self._options: ChunkOptions | None = None

    @property
    def options(self) -> ChunkOptions:
        """The checked options (:meth:`check` first)."""
        if self._options is None:
            self.check()
        assert self._options is not None
        return self._options

    def check(self) -> None:
        """Refuse bad options before any input is read, naming the flag (CLI-12)."""
        try:
            self._options = check_options(ChunkOptions(**self._fields))
        except (ArgumentTypeError, ArgumentValueError) as error:
            message = str(error)
            for argument, flag in self.flags.items():
                message = message.replace(argument, flag)
            raise CliError(message) from None

    def chunk(self, document: SourceDocument) -> list[ChunkRecord]:
        """Return the records of ``document``."""
        return chunk_document(document, self.options)


def counter_option_name(args: argparse.Namespace, default: str) -> str:
    """Return the counter name (RECORD-5) the ``--counter`` options describe."""
    name = args.counter
    if name is None:
        return default
    if name == "tiktoken":
        return f"tiktoken:{args.encoding or 'cl100k_base'}"
    if name == "huggingface":
        if args.tokenizer is None:
            raise CliError("--counter huggingface needs --tokenizer FILE (a tokenizer.json)")
        return f"huggingface:{args.tokenizer}"
    return str(name)


def _load_counter(name: str) -> None:
    """Build the counter once up front, so a missing extra or file is one line (CLI-1)."""
    kind, _, argument = name.partition(":")
    try:
        counter_from_name(name)
    except ImportError as error:
        raise CliError(str(error)) from None
    except Exception as error:  # tiktoken / tokenizers raise bare errors on a bad file
        text = str(error).strip()
        reason = text.splitlines()[0][:300] if text else type(error).__name__
        if kind == "tiktoken":
            encoding = argument or "cl100k_base"
            raise CliError(f"cannot load tiktoken encoding {encoding!r}: {reason}") from None
        if kind == "huggingface":
            raise CliError(f"{argument}: cannot load tokenizer: {reason}") from None
        raise CliError(f"--counter {name}: {reason}") from None


def run_chunking(
    args: argparse.Namespace, chunking: Chunking, text_writer: TextWriter | None = None
) -> int:
    """Chunk every input and write the records (or ``text_writer``'s view of them).

    CLI-10: a bad document is reported on one line naming the file and the run exits 2
    without writing anything; with ``--keep-going`` the good documents are written first
    and every bad one is listed. CLI-11: output goes to a temporary file renamed at the end.
    """
    check_output(getattr(args, "output", None))
    if getattr(args, "encoding_file", None) is not None:
        # COUNT-9: an encoding read from its rank file is registered with tiktoken, so the
        # record's name (tiktoken:NAME) builds it offline below.
        counter_from(args)
    _load_counter(chunking.counter)
    chunking.check()
    inputs = find_inputs(args.paths, args.glob, args.doc_id)
    if args.title is not None and len(inputs) != 1:
        raise CliError(f"--title needs exactly one input document, got {len(inputs)}")
    progress = Progress(len(inputs))
    good: list[tuple[SourceDocument, list[ChunkRecord]]] = []
    bad: list[str] = []
    try:
        for item in documents(inputs, args):
            if isinstance(item, InputError):
                if not args.keep_going:
                    raise CliError(str(item))
                bad.append(str(item))
                progress.step("")
                continue
            good.append((item, chunking.chunk(item)))
            progress.step(item.source or item.doc_id)
    finally:
        progress.close()
    if text_writer is not None:
        for document, records in good:
            text_writer(document, records)
        sys.stdout.flush()
    else:
        write_records([r for _, records in good for r in records], args.output)
    for message in bad:
        print(f"chunkspec {args.command}: skipped: {one_line(message)}", file=sys.stderr)
    if bad:
        print(
            f"chunkspec {args.command}: error: {len(bad)} of {len(inputs)} documents "
            "could not be read",
            file=sys.stderr,
        )
        return 2
    return 0

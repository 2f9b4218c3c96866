"""``chunkspec ingest PATH... --out DIR``: chunk a whole corpus into a Parquet dataset.

Argument parsing over the corpus engine, :func:`chunkspec.ingest` (``chunkspec._corpus``):
every input file becomes its records, or one error row (docs/spec/scale.md); the local
engine uses ``--workers`` processes, ``--engine ray`` a Ray cluster (docs/scale.md). The
engine's lines go to standard error here, with a progress line on a terminal.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from .._corpus._engine import (
    DEFAULT_MAX_BYTES,
    IngestListener,
    IngestResult,
    Tally,
    check_run,
    ingest,
)
from .._errors import ArgumentTypeError, ArgumentValueError
from .._records._job import ChunkJob
from .._records._size_policy import BIG_BYTES
from .._text._documents import INPUT_FORMATS
from ._chunking_flags import CommandOptions, add_chunking_options, chunk_options
from ._inputs import (
    add_follow_links_option,
    add_reading_options,
    add_repository_options,
    cli_message,
    input_encoding,
    pdf_password,
)
from ._io import CliError, one_line
from ._sidecar import add_metadata_option
from ._store_options import add_store_options, apply_into, store_target

__all__ = ["register"]

#: ``ingest`` offers every chunking flag, with the library's defaults (OPT-6).
OPTIONS = CommandOptions("ingest")

#: The keywords of :func:`chunkspec.ingest` that are the flags' of the same name (and
#: ``--format``, its ``output_format``), and the listener that prints what the run says.
SETTINGS = (
    "engine",
    "glob",
    "follow_links",
    "no_skip",
    "gitignore",
    "metadata",
    "no_metadata",
    "workers",
    "oversubscribe",
    "rows_per_file",
    "address",
    "big_bytes",
    "big_memory",
    "verbose",
    "listener",
)

#: The reading options as ChunkJob's errors name them -> the flags that set them.
_FLAGS = {"max_bytes": "--max-bytes", "input_format": "--input-format"}


def register(sub: Any) -> None:
    """Add the ``ingest`` subcommand."""
    parser = sub.add_parser(
        "ingest",
        help="chunk a corpus of files into a Parquet (or JSON Lines) dataset",
        description="Chunk every file into chunk records (one error row per file that "
        "cannot be chunked) and write them as part files in --out, replacing what an "
        "earlier run wrote there; with the same options, only the files whose content "
        "changed are chunked again, and _changes.jsonl says what changed (docs/scale.md).",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="files and folders (searched recursively, names starting with . skipped)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="the output folder (required, unless --into names a store: then STORE-PATH.chunkspec)",
    )
    parser.add_argument(
        "--format",
        choices=("parquet", "jsonl"),
        default="parquet",
        help="the part files' format (SCALE-2) (default: parquet)",
    )
    add_chunking_options(parser, OPTIONS)
    parser.add_argument(
        "--glob",
        metavar="PATTERN",
        help="in folders, only files whose relative path or name matches PATTERN (fnmatch, "
        "ignoring case; default: every .md, .markdown, .txt, .pdf and .json file, and code "
        "files (REPO-1))",
    )
    parser.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="read every file as this format (default: by suffix)",
    )
    add_reading_options(parser)
    add_follow_links_option(parser)
    add_repository_options(parser)
    add_metadata_option(parser)
    parser.add_argument(
        "--no-metadata",
        action="store_true",
        help="re-run without the --metadata sidecar the previous run into --out used, on "
        "purpose (its metadata is dropped); without it such a run is refused (TRUST-43)",
    )
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=DEFAULT_MAX_BYTES,
        metavar="N",
        help=f"a file over N bytes is an error row; at most N+1 bytes of a file are read "
        f"(0: no cap) (default {DEFAULT_MAX_BYTES})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="local processes (default: one per usable core; more than that is capped at "
        "the cores, with a notice, unless --oversubscribe); the output is the same for any N",
    )
    parser.add_argument(
        "--oversubscribe",
        action="store_true",
        help="run --workers N processes even when N is more than the usable cores (TRUST-27)",
    )
    parser.add_argument(
        "--rows-per-file",
        type=int,
        default=100_000,
        metavar="N",
        help="start a new part file after about N rows (default 100000)",
    )
    parser.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local processes, or Ray Data (chunkspec[ray]); the same rows (default: local)",
    )
    parser.add_argument(
        "--address",
        metavar="ADDR",
        help="--engine ray: the cluster to join (default: RAY_ADDRESS, else a local Ray)",
    )
    parser.add_argument(
        "--big-bytes",
        type=int,
        default=None,
        metavar="N",
        help="--engine ray: a file over N bytes is chunked alone, with memory reserved "
        f"(default {BIG_BYTES})",
    )
    parser.add_argument(
        "--big-memory",
        type=int,
        default=None,
        metavar="BYTES",
        help="--engine ray: memory reserved per big file (default: 64 times its size "
        "rounded up to a power of two)",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="--engine ray: show Ray's own messages on standard error (default: they go to "
        "_ray.log in --out)",
    )
    add_store_options(parser)
    parser.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress line on standard error (default: auto, when it is a terminal)",
    )
    parser.set_defaults(run=run)


def options_from(args: argparse.Namespace) -> ChunkJob:
    """Return the checked chunking options, an error naming the flag (SCALE-4)."""
    try:
        return ChunkJob(
            chunk_options(args, OPTIONS),
            args.input_format,
            None if args.max_bytes == 0 else args.max_bytes,
            input_encoding(args),
            pdf_password(args),
            bool(args.keep_furniture),
            args.language,
        )
    except (ArgumentTypeError, ArgumentValueError) as error:
        message = str(error)
        for argument, flag in _FLAGS.items():
            if message.startswith(argument):
                message = flag + message[len(argument) :]
        raise CliError(message) from None
    except ImportError as error:  # tiktoken or tokenizers missing: name the extra
        raise CliError(str(error)) from None


class Terminal(IngestListener):
    """The engine's lines on standard error; a progress line when it is shown."""

    def __init__(self, progress: bool) -> None:
        self.progress = progress
        self._shown = 0.0

    def note(self, message: str) -> None:
        """Print one line of the run, after the progress line is erased."""
        self.clear()
        print(f"chunkspec ingest: {message}", file=sys.stderr)

    def document(self, tally: Tally, error: str | None) -> None:
        """Print a document's error; show the progress line every tenth of a second."""
        if error is not None:
            self.clear()
            print(f"chunkspec ingest: {cli_message(one_line(error))}", file=sys.stderr)
        now = time.perf_counter()
        if self.progress and (now - self._shown > 0.1 or tally.documents == tally.total):
            self._shown = now
            sys.stderr.write(
                f"\r{tally.documents}/{tally.total} documents, {tally.chunks} chunks, "
                f"{tally.errors} errors"
            )
            sys.stderr.flush()

    def clear(self) -> None:
        """Erase the progress line before another message."""
        if self.progress and self._shown:
            sys.stderr.write("\r\x1b[K")


def summary(out: str, result: IngestResult) -> str:
    """Return the last line: documents, chunks, errors, time (and documents reused)."""
    errors = "1 error" if result.errors == 1 else f"{result.errors} errors"
    kept = f"{result.reused} reused, " if result.reused else ""  # INCR-5
    passed = f"{result.skipped} skipped, " if result.skipped else ""  # TRUST-30
    return (
        f"{result.documents} documents, {result.chunks} chunks, {errors}, {kept}{passed}"
        f"{result.seconds:.1f} s -> {out}"
    )


def run(args: argparse.Namespace) -> int:
    """Chunk every input and write the part files, then apply them to ``--into``'s store;
    130 on Ctrl-C."""
    into = store_target(args)  # STORE-1: checked before any work
    check_run(
        args.engine,
        args.workers,
        args.oversubscribe,
        args.rows_per_file,
        args.max_bytes,
        flags=True,  # CLI-12: errors name the flags
        address=args.address,
        big_bytes=args.big_bytes,
        big_memory=args.big_memory,
        verbose=args.verbose,
    )
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    terminal = Terminal(show)
    args.listener = terminal
    try:
        settings = {name: getattr(args, name) for name in SETTINGS}
        job = options_from(args)
        result = ingest(args.paths, args.out, job, output_format=args.format, **settings)
    except BaseException:  # CLI-13: main prints the line; staging removed the new folder
        terminal.clear()
        raise
    terminal.clear()
    print(summary(args.out, result))
    if into is not None:
        print(apply_into(into, args, terminal.note))
    return 0

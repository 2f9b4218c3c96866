"""``chunkspec ingest PATH... --out DIR``: chunk a whole corpus into a Parquet dataset.

Every input file becomes its records, or one error row (docs/spec/scale.md); the local
engine uses ``--workers`` processes, ``--engine ray`` a Ray cluster (docs/scale.md).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from .._core._collector import collector_paused
from .._core._metadata import Metadata
from .._errors import ArgumentTypeError, ArgumentValueError
from .._records._rows import ChunkJob
from .._text._documents import INPUT_FORMATS
from .._version import __version__
from ._ingest_incremental import (
    ChangeSet,
    Previous,
    content_hash,
    manifest_entry,
    previous_result,
    refuse_dropped_sidecar,
    run_fingerprint,
    say_damage,
    sidecar_hash,
    summarise,
)
from ._ingest_local import item_of, run_local, tasks
from ._ingest_output import PartWriter, check_out, staging, write_manifest
from ._inputs import (
    Input,
    add_follow_links_option,
    add_reading_options,
    find_inputs,
    input_encoding,
    pdf_password,
    report_skipped,
    shown,
)
from ._io import CliError, one_line, os_reason
from ._options import CommandOptions, add_chunking_options, chunk_options
from ._results import part_files
from ._reuse_checks import Summaries
from ._sidecar import add_metadata_option, read_sidecar
from ._workers import worker_count

__all__ = ["register"]

#: ``ingest`` offers every chunking flag, with the library's defaults (OPT-6).
OPTIONS = CommandOptions("ingest")

#: The reading options as ChunkJob's errors name them -> the flags that set them.
_FLAGS = {"max_bytes": "--max-bytes", "input_format": "--input-format"}

#: The default size cap: a bigger file is an error row, not a worker's death (SCALE-5).
DEFAULT_MAX_BYTES = 256 * 1024 * 1024


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
    parser.add_argument("--out", required=True, metavar="DIR", help="the output folder (required)")
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
        "ignoring case; default: every .md, .markdown, .txt, .pdf and .json file)",
    )
    parser.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="read every file as this format (default: by suffix)",
    )
    add_reading_options(parser)
    add_follow_links_option(parser)
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
        "(default 16777216)",
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
    parser.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress line on standard error (default: auto, when it is a terminal)",
    )
    parser.set_defaults(run=run)


def find_files(
    paths: list[str],
    pattern: str | None,
    out: str | None = None,
    *,
    follow_links: bool = False,
    skipped: list[str] | None = None,
) -> list[Input]:
    """CLI-7 and CLI-8's inputs and doc ids; ``-`` and a missing path are errors here.

    ``out`` (TRUST-20 refused it inside an input already) is never walked. TRUST-30,
    TRUST-31: links out of an input folder (unless ``follow_links``) and names that are not
    regular files are skipped, each as a line appended to ``skipped``; TRUST-34: two inputs
    with one doc id are refused, naming both.
    """
    for path in paths:
        if path == "-":
            raise CliError("ingest reads files and folders, not standard input (-)")
        if not os.path.lexists(path):
            raise CliError(f"{shown(path)}: no such file or folder")
    return find_inputs(paths, pattern, None, skip=out, follow_links=follow_links, skipped=skipped)


def options_from(args: argparse.Namespace) -> ChunkJob:
    """Return the checked chunking options, an error naming the flag (SCALE-4)."""
    try:
        return ChunkJob(
            chunk_options(args, OPTIONS),
            args.input_format,
            None if args.max_bytes == 0 else args.max_bytes,
            input_encoding(args),
            pdf_password(args),
        )
    except (ArgumentTypeError, ArgumentValueError) as error:
        message = str(error)
        for argument, flag in _FLAGS.items():
            if message.startswith(argument):
                message = flag + message[len(argument) :]
        raise CliError(message) from None
    except ImportError as error:  # tiktoken or tokenizers missing: name the extra
        raise CliError(str(error)) from None


class Tally:
    """Counts rows as they are written, and shows progress on a terminal."""

    def __init__(self, total: int, show: bool) -> None:
        self.total = total
        self.show = show
        self.documents = 0
        self.chunks = 0
        self.errors = 0
        self.skipped = 0  # TRUST-30, TRUST-31: entries the walk did not read
        self.started = time.perf_counter()
        self._shown = 0.0

    def add(self, rows: list[dict[str, Any]]) -> None:
        """Count one document's rows; print its error, if any."""
        self.documents += 1
        if len(rows) == 1 and rows[0]["error"] is not None:
            self.errors += 1
            self.clear()
            print(f"chunkspec ingest: {one_line(rows[0]['error'])}", file=sys.stderr)
        else:
            self.chunks += len(rows)
        now = time.perf_counter()
        if self.show and (now - self._shown > 0.1 or self.documents == self.total):
            self._shown = now
            sys.stderr.write(
                f"\r{self.documents}/{self.total} documents, {self.chunks} chunks, "
                f"{self.errors} errors"
            )
            sys.stderr.flush()

    def clear(self) -> None:
        """Erase the progress line before another message."""
        if self.show and self._shown:
            sys.stderr.write("\r\x1b[K")

    def summary(self, out: str, reused: int = 0) -> str:
        """Return the last line: documents, chunks, errors, time (and documents reused)."""
        self.clear()
        seconds = time.perf_counter() - self.started
        errors = "1 error" if self.errors == 1 else f"{self.errors} errors"
        kept = f"{reused} reused, " if reused else ""  # INCR-5
        passed = f"{self.skipped} skipped, " if self.skipped else ""  # TRUST-30
        return (
            f"{self.documents} documents, {self.chunks} chunks, {errors}, {kept}{passed}"
            f"{seconds:.1f} s -> {out}"
        )


def _positive(flag: str, value: int | None) -> None:
    """Refuse a count below 1."""
    if value is not None and value < 1:
        raise CliError(f"{flag} must be >= 1, got {value}")


#: ``--big-bytes``' default with ``--engine ray``: files over 16 MiB are chunked alone.
BIG_BYTES = 16 * 1024 * 1024


def run(args: argparse.Namespace) -> int:
    """Chunk every input and write the part files; 130 on Ctrl-C."""
    _positive("--workers", args.workers)
    _positive("--rows-per-file", args.rows_per_file)
    if args.max_bytes < 0:
        raise CliError(f"--max-bytes must be >= 0 (0: no cap), got {args.max_bytes}")
    # CLI-12: an option the chosen engine would ignore is refused, never silently dropped
    if args.engine != "ray":
        for flag, value in (
            ("--address", args.address),
            ("--big-bytes", args.big_bytes),
            ("--big-memory", args.big_memory),
            ("--verbose", True if args.verbose else None),
        ):
            if value is not None:
                raise CliError(f"{flag} needs --engine ray")
    elif args.big_bytes is None:
        args.big_bytes = BIG_BYTES
    if args.oversubscribe and (args.engine != "local" or args.workers is None):
        raise CliError("--oversubscribe needs --workers N and the local engine")
    options = options_from(args)
    out = check_out(args.out, args.format, args.paths)  # TRUST-20..22: its real path
    if args.engine == "local":
        args.workers = worker_count(args.workers, args.oversubscribe)  # TRUST-27
    skipped: list[str] = []
    inputs = find_files(args.paths, args.glob, out, follow_links=args.follow_links, skipped=skipped)
    report_skipped("ingest", skipped)  # TRUST-30, TRUST-31: said before any work
    sidecar: dict[str, Metadata] = {}
    if args.metadata is not None:  # META-7: checked before anything is written
        sidecar = read_sidecar(args.metadata, [item.doc_id for item in inputs])
    refuse_dropped_sidecar(out, args.metadata is not None, args.no_metadata)  # TRUST-43
    fingerprint = run_fingerprint(options, args.format)
    previous = previous_result(out, fingerprint)  # INCR-2, TRUST-41
    hashes = [content_hash(item, options.max_bytes) for item in inputs]
    givens = [sidecar_hash(sidecar.get(item.doc_id)) for item in inputs]
    reasons = [
        previous.reason(item, digest, given)
        for item, digest, given in zip(inputs, hashes, givens, strict=True)
    ]
    keep = [reason is None for reason in reasons]
    say_damage(reasons)  # TRUST-44
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    tally = Tally(len(inputs), show)
    tally.skipped = len(skipped)
    listed: list[dict[str, Any]] = []
    try:
        with staging(out, args.out) as folder:
            changes = ChangeSet(folder, previous)  # INCR-6, TRUST-45: written as rows come
            try:
                if args.engine == "ray":
                    _run_ray(inputs, keep, previous, options, args, folder, tally, sidecar)
                    written = Summaries(check=False)
                    with collector_paused():  # many small objects, none cyclic
                        for number, path in enumerate(part_files(folder)):
                            written.read_part(path, number)
                        written.close()
                    for position, item in enumerate(inputs):
                        found = written.documents.get(item.doc_id)
                        changes.document(
                            item.doc_id, None if found is None else found.entries, reasons[position]
                        )
                        listed.append(
                            manifest_entry(item, hashes[position], givens[position], found)
                        )
                else:

                    def record(position: int, rows: list[dict[str, Any]]) -> None:
                        item = inputs[position]
                        # TRUST-41: a reused document's rows were read back and gave its summary
                        if keep[position]:
                            found = previous.documents[item.doc_id]
                        else:
                            found = summarise(rows)
                        changes.document(item.doc_id, found.entries, reasons[position])
                        listed.append(
                            manifest_entry(item, hashes[position], givens[position], found)
                        )

                    _run_local(
                        inputs, keep, previous, options, args, folder, tally, sidecar, record
                    )
                counts = changes.finish()
            finally:
                changes.close()
            manifest = _manifest(args, options, tally)
            manifest["fingerprint"] = fingerprint
            manifest["metadata_sidecar"] = args.metadata is not None  # TRUST-43
            manifest["reused"] = sum(keep)
            manifest["changes"] = counts
            manifest["inputs"] = listed
            write_manifest(folder, manifest)
    except KeyboardInterrupt:  # CLI-13: main prints the line; staging removed the new folder
        tally.clear()
        raise
    except OSError as error:  # TRUST-26: a full disk; staging removed the new folder
        tally.clear()
        raise CliError(f"--out {args.out}: cannot write: {os_reason(error)}") from None
    print(tally.summary(args.out, sum(keep)))
    return 0


def _run_ray(
    inputs: list[Input],
    keep: list[bool],
    previous: Previous,
    options: ChunkJob,
    args: argparse.Namespace,
    folder: Path,
    tally: Tally,
    sidecar: dict[str, Metadata],
) -> None:
    """Chunk the changed inputs on Ray, then write the reused rows as part files (INCR-3);
    a document's sidecar metadata travels as its row's ``metadata`` column (META-8)."""
    from ._ingest_ray import run_ray

    chunked = [item for item, kept in zip(inputs, keep, strict=True) if not kept]
    if chunked or not any(keep):
        run_ray(chunked, options, args, folder, tally, sidecar)
    if any(keep):
        writer = PartWriter(folder, args.format, args.rows_per_file)
        try:
            for item, kept in zip(inputs, keep, strict=True):
                if kept:
                    rows = previous.load(item.doc_id)  # TRUST-41: checked again
                    writer.write(rows)
                    tally.add(rows)
        finally:
            writer.close()


def _run_local(
    inputs: list[Input],
    keep: list[bool],
    previous: Previous,
    options: ChunkJob,
    args: argparse.Namespace,
    folder: Path,
    tally: Tally,
    sidecar: dict[str, Metadata],
    record: Callable[[int, list[dict[str, Any]]], None],
) -> None:
    """Chunk with the local engine, write the part files in input order; give each
    document's position and rows to ``record`` as they are written (the change set's new
    side, INCR-6), holding no other rows (TRUST-45). Each document's sidecar metadata
    travels with its item (META-7).

    INCR-3: the rows of a reused input are the previous result's, written where a full run
    would write that input's rows, so the part files are those of a full run.
    """
    chunked = [index for index, kept in enumerate(keep) if not kept]
    items = [item_of(inputs[i], sidecar) for i in chunked]
    sizes = []
    for i in chunked:
        item = inputs[i]
        try:
            sizes.append(0 if item.problem else os.path.getsize(item.path))
        except OSError:
            sizes.append(0)  # the worker reports it as an error row
    workers = args.workers or os.cpu_count() or 1
    groups = list(tasks(items, sizes, bytes_per_task=1 << 20))
    writer = PartWriter(folder, args.format, args.rows_per_file)
    order = iter(chunked)
    written = 0  # the inputs before this one are written

    def emit(position: int, rows: list[dict[str, Any]]) -> None:
        writer.write(rows)
        tally.add(rows)
        record(position, rows)

    def reuse_until(stop: int) -> None:
        nonlocal written
        for position in range(written, stop):
            if keep[position]:  # TRUST-41: read back and checked again
                emit(position, previous.load(inputs[position].doc_id))
        written = max(written, stop)

    def done(rows: list[dict[str, Any]]) -> None:
        nonlocal written
        position = next(order)
        reuse_until(position)
        emit(position, rows)
        written = position + 1

    try:
        if groups:
            run_local(groups, options, min(workers, len(groups)), done)
        reuse_until(len(inputs))
    except BrokenProcessPool:
        raise CliError(
            "a worker process died (killed, or out of memory); --out left as it was; "
            "try a lower --max-bytes or fewer --workers"
        ) from None
    finally:
        writer.close()


def _manifest(args: argparse.Namespace, job: ChunkJob, tally: Tally) -> dict[str, Any]:
    """What the run did, for ``_chunkspec.json``."""
    return {
        "chunkspec": __version__,
        "format": args.format,
        "strategy": job.options.strategy,
        "max_tokens": job.options.max_tokens,
        "overlap_tokens": job.options.overlap_tokens,
        "counter": job.options.counter,
        "encoding_file": job.options.encoding_file,
        "count_headings": job.options.count_headings,
        "split_tables": job.options.split_tables,
        "min_tokens": job.options.minimum,
        "budget_includes_headings": job.options.budget_includes_headings,
        "input_format": job.input_format,
        "input_encoding": job.encoding,
        # CLI-18: whether a password was given, never the password itself
        "pdf_password": job.pdf_password is not None,
        "max_bytes": job.max_bytes,
        "documents": tally.documents,
        "chunks": tally.chunks,
        "errors": tally.errors,
    }

"""The one run of every chunking command: read inputs, chunk, write records (CLI-7..CLI-12)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections import Counter
from collections.abc import Callable, Sequence

from .._corpus._sidecar_file import read_sidecar
from .._corpus._walk import find_inputs
from .._records._chunk_document import chunk_document
from .._records._record import ChunkRecord
from .._text._documents import InputError, SourceDocument
from ._chunking_flags import CommandOptions, chunk_options
from ._inputs import documents, fallback_line, report_skipped, walk_rules
from ._io import CliError, one_line
from ._output import Progress, check_output, record_writer

__all__ = ["run_chunking"]

#: What a text-format command prints for one document and its records.
TextWriter = Callable[[SourceDocument, Sequence[ChunkRecord]], None]


def run_chunking(
    args: argparse.Namespace, spec: CommandOptions, text_writer: TextWriter | None = None
) -> int:
    """Chunk every input and write the records (or ``text_writer``'s view of them).

    CLI-10: a bad document is reported on one line naming the file and the run exits 2
    without writing anything; with ``--keep-going`` the good documents are written first
    and every bad one is listed. CLI-11: output goes to a temporary file renamed at the end.
    """
    output = getattr(args, "output", None)
    check_output(output)
    options = chunk_options(args, spec)
    skipped: list[str] = []
    counts: Counter[str] = Counter()
    inputs = find_inputs(
        args.paths,
        args.glob,
        args.doc_id,
        follow_links=args.follow_links,
        skipped=skipped,
        rules=walk_rules(args),
        counts=counts,
    )
    if args.title is not None and len(inputs) != 1:
        raise CliError(f"--title needs exactly one input document, got {len(inputs)}")
    sidecar = None
    if getattr(args, "metadata", None) is not None:  # META-7: checked before any document
        sidecar = read_sidecar(args.metadata, [item.doc_id for item in inputs])
    report_skipped(args.command, skipped, counts)  # TRUST-30, 31, REPO-9: before any work
    progress = Progress(len(inputs))
    good: list[tuple[SourceDocument, list[ChunkRecord]]] = []  # text_writer's view only
    empty: list[str] = []  # the documents with no record, in order
    fell_back: list[str] = []  # SOURCE-9: the files read with --input-encoding
    bad: list[str] = []
    with contextlib.ExitStack() as stack:
        # Records go to the writer document by document: a run keeps no document (its text
        # and blocks) past its own chunking, and a file output none of its records.
        write = None if text_writer is not None else stack.enter_context(record_writer(output))
        try:
            for item in documents(inputs, args, sidecar):
                if isinstance(item, InputError):
                    if not args.keep_going:
                        raise CliError(str(item))
                    bad.append(str(item))
                    progress.step("")
                    continue
                if item.encoding is not None:  # SOURCE-9: said after the records
                    fell_back.append(fallback_line(item.source or item.doc_id, item.encoding))
                records = chunk_document(item, options)
                if not records:
                    empty.append(item.source or item.doc_id)
                if write is None:
                    good.append((item, records))
                else:
                    write(records)
                progress.step(item.source or item.doc_id)
        finally:
            progress.close()
    if text_writer is not None:
        for document, records in good:
            text_writer(document, records)
        sys.stdout.flush()
    for line in fell_back:
        print(f"chunkspec {args.command}: {line}", file=sys.stderr)
    for name in empty:  # SOURCE-7: no record, but never silently (CLI-17)
        print(f"chunkspec {args.command}: {name}: no text to chunk", file=sys.stderr)
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

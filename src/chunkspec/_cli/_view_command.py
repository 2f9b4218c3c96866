"""``chunkspec view``: one HTML page showing what a chunker did (rules VIEW-1 to VIEW-5).

``view FILE... [chunking flags] -o page.html`` chunks as ``chunk`` does; ``view
RECORDS.jsonl --source FILE`` draws records already written (any strategy's, or a port's)
over the text they came from.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._corpus._walk import named_input, shown
from .._records._record import ChunkRecord
from .._records._record_files import chunk_record, file_rows, is_error_row
from .._text._documents import InputError, SourceDocument
from ._chunking import run_chunking
from ._chunking_flags import CommandOptions, add_chunking_options, flag_defaults
from ._inputs import add_input_options, read_input
from ._io import CliError, read_bytes
from ._output import atomic_file
from ._view_html import ViewDocument, render_page

__all__ = ["register"]

#: The chunking flags of ``view``: those of ``chunk`` (OPT-6).
OPTIONS = CommandOptions("view")


def register(sub: Any) -> None:
    """Add the ``view`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "view",
        help="draw the chunks of documents, or of records, on one HTML page",
        description=(
            "Chunk each document as `chunk` does and write one self-contained HTML page "
            "showing every chunk's span over the text, with its kind, heading path, tokens "
            "and pages; or, with --source, draw the records of a records file (JSON Lines or "
            "Parquet) over the document they came from."
        ),
    )
    add_input_options(parser)
    add_chunking_options(parser, OPTIONS)
    parser.add_argument(
        "--source",
        metavar="FILE",
        help="PATH is a records file (JSON Lines or Parquet); draw them over FILE, the document "
        "they were made from (read as PATH would be: suffix, --input-format, ...)",
    )
    parser.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        dest="page",
        help="write the page to FILE (.html or .htm) instead of standard output; written to "
        "a temporary file and renamed",
    )
    parser.set_defaults(run=run)


def _check_page(path: str | None) -> None:
    """Refuse an ``--output`` that is not an HTML file name in an existing folder."""
    if path is None:
        return
    if Path(path).suffix.lower() not in (".html", ".htm"):
        raise CliError(f"--output {path}: use a .html or .htm file name")
    folder = Path(path).parent
    if not folder.is_dir():
        raise CliError(f"--output {path}: no such folder {str(folder)!r}")


def _write_page(documents: Sequence[ViewDocument], path: str | None) -> None:
    """Write the page on standard output or, atomically, to ``path`` (CLI-11)."""
    page = render_page(documents)
    if path is None:
        sys.stdout.write(page)
        sys.stdout.flush()
        return
    with atomic_file(path, "w") as out:
        out.write(page)


def run(args: argparse.Namespace) -> int:
    """Draw the chunks of the inputs, or of the records with ``--source``."""
    _check_page(args.page)
    if args.source is not None:
        _write_page([_from_records(args)], args.page)
        return 0
    drawn: list[ViewDocument] = []

    def collect(document: SourceDocument, records: Sequence[ChunkRecord]) -> None:
        """Keep each good document and its records for the page."""
        drawn.append(_view_document(document, records))

    status = run_chunking(args, OPTIONS, collect)
    if drawn:
        _write_page(drawn, args.page)
    return status


def _from_records(args: argparse.Namespace) -> ViewDocument:
    """VIEW-1: the records of PATH (one document's) drawn over ``--source``."""
    for name, default in flag_defaults().items():  # VIEW-1: none may be changed
        if getattr(args, name) != default:
            flag = "--" + name.replace("_", "-")
            raise CliError(f"--source draws records as they are; {flag} does not go with it")
    if len(args.paths) != 1 or args.glob is not None:
        raise CliError("--source needs exactly one records file as PATH")
    path: str = args.paths[0]
    numbered = _read_records(path)
    doc_ids = sorted({record.doc_id for _, record in numbered})
    if args.doc_id is not None:
        numbered = [(n, r) for n, r in numbered if r.doc_id == args.doc_id]
        if not numbered:
            raise CliError(f"{shown(path)}: no record has doc_id {args.doc_id!r}")
    elif len(doc_ids) > 1:
        listed = ", ".join(map(repr, doc_ids[:3])) + (", ..." if len(doc_ids) > 3 else "")
        raise CliError(
            f"{shown(path)}: records of {len(doc_ids)} documents ({listed}); "
            "choose one with --doc-id"
        )
    source = args.source
    doc_id = numbered[0][1].doc_id if numbered else (args.doc_id or Path(source).stem)
    try:
        document = read_input(named_input(source, doc_id), args)
    except InputError as error:
        raise CliError(str(error)) from None
    records = [record for _, record in numbered]
    for number, record in numbered:
        _check_span(path, number, record, document, source)
    title = records[0].title if records else document.title
    return _view_document(document, records, title)


def _view_document(
    document: SourceDocument, records: Sequence[ChunkRecord], title: str | None = None
) -> ViewDocument:
    """The document to draw; a web page's records with their markup spans (VIEW-6)."""
    shown = document.title if title is None else title
    if document.markup_map is None:
        return ViewDocument(document.doc_id, shown, document.text, records)
    spans = [document.markup_span(r.start, r.end) for r in records]
    return ViewDocument(document.doc_id, shown, document.text, records, document.markup, spans)


def _check_span(
    path: str, number: int, record: ChunkRecord, document: SourceDocument, source: str
) -> None:
    """VIEW-1: the span lies in the source and its words are the record's (RECORD-3)."""
    length = len(document.text)
    where = f"{shown(path)}:{number}"
    if record.end > length:
        raise CliError(
            f"{where}: span [{record.start}, {record.end}) is past the end of "
            f"{shown(source)} ({length} characters); is this the records' source?"
        )
    region = record.prefix + document.text[record.start : record.end]
    if region.split() != record.text.split():
        raise CliError(
            f"{where}: text differs from {shown(source)}[{record.start}:{record.end}] "
            "(RECORD-3); is this the records' source, with offsets in code points?"
        )


def _read_records(path: str) -> list[tuple[int, ChunkRecord]]:
    """Every record of a records file (JSON Lines or Parquet, CLI-14) with its line or row
    number (RECORD-8, CLI-4's lines); an ingest error row is skipped (CLI-15)."""
    found: list[tuple[int, ChunkRecord]] = []
    for number, row in file_rows(shown(path), read_bytes(path)):
        if not is_error_row(row):
            found.append((number, chunk_record(f"{shown(path)}:{number}", row)))
    return found

"""``chunkspec chunk``: chunk documents with any strategy (rules CHUNK-1 to CHUNK-6).

Every strategy writes chunk records (``--format jsonl``, the default), so any of them can
be scored and fed to ``pack``. ``--format text`` is seed 003's ``ragctl chunk`` smoke view:
block and chunk counts, a per-kind tally and the first N chunks with parent arrows.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .._records._record import ChunkRecord
from .._text._documents import SourceDocument
from ._chunking import run_chunking
from ._chunking_flags import CommandOptions, add_chunking_options
from ._inputs import add_input_options
from ._io import CliError
from ._output import add_output_options
from ._sidecar import add_metadata_option

__all__ = ["OPTIONS", "alias_options", "register", "register_alias"]

#: The chunking flags of ``chunk``: every one, with the library's defaults (OPT-6).
OPTIONS = CommandOptions("chunk")


def alias_options(command: str, strategy: str) -> CommandOptions:
    """The options of ``command``, an alias of ``chunk --strategy strategy`` (OPT-9): every
    flag of ``chunk`` with its default, but ``--strategy``."""
    return CommandOptions(command, strategy=strategy)


def register(sub: Any) -> None:
    """Add the ``chunk`` subcommand to ``sub``."""
    _add(
        sub,
        OPTIONS,
        help="chunk documents with a strategy (chunk records, JSON Lines)",
        description=(
            "Chunk each document (.md/.markdown, .txt, .pdf, .json blocks, .html, .docx, "
            "source code; folders recursively; - is standard input) with --strategy and "
            "write one chunk record a line; --format text summarises instead."
        ),
    )


def register_alias(sub: Any, options: CommandOptions, help: str, description: str) -> None:
    """Add ``options.command``, ``chunk --strategy options.strategy`` under another name
    (OPT-9): the same parser but ``--strategy``, the same run."""
    _add(sub, options, help=help, description=description)


def _add(sub: Any, options: CommandOptions, help: str, description: str) -> None:
    """Add the subcommand ``options.command`` with ``chunk``'s flags and run."""
    parser = sub.add_parser(options.command, help=help, description=description)
    add_input_options(parser)
    add_metadata_option(parser)
    add_chunking_options(parser, options)
    parser.add_argument(
        "--format",
        choices=("jsonl", "text", "chunks"),
        default="jsonl",
        help="jsonl: one record a line (default); text: counts, tallies and the first chunks; "
        "chunks: each chunk whole under a header line (pages, characters, tokens)",
    )
    parser.add_argument(
        "-n",
        type=int,
        default=10,
        dest="show",
        metavar="N",
        help="chunks to show per document with --format text (10)",
    )
    add_output_options(parser)
    if options.strategy is not None:
        parser.set_defaults(strategy=options.strategy)  # OPT-9: the one strategy
    parser.set_defaults(run=lambda args: run(args, options))


def run(args: argparse.Namespace, options: CommandOptions = OPTIONS) -> int:
    """Chunk the documents; write records or the text summary."""
    if args.show < 0:
        raise CliError(f"-n must be >= 0, got {args.show}")
    if args.format != "jsonl" and args.output is not None:
        raise CliError(f"--output writes records; it does not go with --format {args.format}")

    def text(document: SourceDocument, records: Sequence[ChunkRecord]) -> None:
        """CHUNK-3: counts, tallies, then the first ``-n`` chunks."""
        _summary(document, records, args.strategy, args.show)

    views = {"text": text, "chunks": _chunks}
    return run_chunking(args, options, views.get(args.format))


def _chunks(document: SourceDocument, records: Sequence[ChunkRecord]) -> None:
    """CHUNK-7: each chunk under ``--- chunk ID: pages A-B, chars S:E, T tokens ---`` (no
    page part for a document without pages, `` OVERSIZED`` before the dashes when over)."""
    out = sys.stdout
    for r in records:
        if r.page_start is None:  # a document without pages (SOURCE-4)
            shown = ""
        elif r.page_start == r.page_end:
            shown = f"page {r.page_start}, "
        else:
            shown = f"pages {r.page_start}-{r.page_end}, "
        flag = " OVERSIZED" if r.oversized else ""
        out.write(
            f"--- chunk {r.id}: {shown}chars {r.start}:{r.end}, {r.tokens} tokens{flag} ---\n"
            f"{r.text}\n"
        )


def _summary(
    document: SourceDocument, records: Sequence[ChunkRecord], strategy: str, show: int
) -> None:
    """Print one document's summary (CHUNK-3)."""
    blocks = document.blocks().blocks
    out = sys.stdout
    out.write(
        f"{document.doc_id}: {len(blocks)} blocks, {len(records)} chunks (strategy {strategy})\n"
    )
    out.write("blocks: " + _tally(Counter(block.kind for block in blocks)) + "\n")
    out.write("chunks: " + _tally(Counter(r.kind for r in records)) + "\n")
    over = sum(1 for r in records if r.oversized)
    if over:  # CHUNK-3: an embedder cuts what is over its limit; say so where it is seen
        out.write(f"oversized: {over} over the budget\n")
    for r in records[:show]:
        arrow = f" <- {r.parent_id}" if r.parent_id is not None else ""
        mark = f" (oversized, {r.tokens} tokens)" if r.oversized else ""
        preview = " ".join(r.text.split())
        if len(preview) > 72:
            preview = preview[:69] + "..."
        out.write(f"[{r.id}] {r.kind}{arrow}{mark}: {preview}\n")
    if len(records) > show:
        out.write(f"... {len(records) - show} more\n")


def _tally(counts: Counter[str]) -> str:
    """Return ``"kind=n, ..."`` sorted by kind, or ``"none"``."""
    return ", ".join(f"{kind}={n}" for kind, n in sorted(counts.items())) or "none"

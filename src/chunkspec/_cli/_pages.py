"""``chunkspec pages``: the page-aware chunker over a PDF or a form-feed-paged text file."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from .._pages import PAGE_SEPARATOR, chunk_pages
from .._pdf import read_pdf_pages
from ._counter import add_counter_options, counter_from
from ._io import CliError, json_line, read_text

__all__ = ["read_pages", "register"]


def register(sub: Any) -> None:
    """Add the ``pages`` subcommand to ``sub``."""
    parser = sub.add_parser(
        "pages",
        help="chunk a paged document (PDF, or text with form feeds) with page provenance",
        description=(
            "Chunk FILE.pdf (pages from pypdf) or a text file whose pages are separated by "
            "form feeds (U+000C) into overlapping token windows that carry their page span."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="a .pdf file, or UTF-8 text (- for stdin)")
    parser.add_argument("--max-tokens", type=int, default=400, metavar="N")
    parser.add_argument("--overlap-tokens", type=int, default=100, metavar="N")
    add_counter_options(parser, default="whitespace")
    parser.add_argument("--format", choices=("text", "jsonl"), default="text")
    parser.set_defaults(run=run)


def read_pages(path: str) -> list[str]:
    """Return the pages of ``path``: pypdf's pages for a PDF, else text split on form feeds."""
    if path.lower().endswith(".pdf"):  # never "-" (stdin is text)
        try:
            return read_pdf_pages(path)
        except FileNotFoundError:
            raise CliError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise CliError(f"{path}: is a directory") from None
        except OSError as error:
            raise CliError(f"{path}: cannot read: {error.strerror}") from None
        except ImportError as error:
            raise CliError(str(error)) from None
    return read_text(path).split(PAGE_SEPARATOR)


def run(args: argparse.Namespace) -> int:
    """Chunk the pages and print them as text blocks or JSON Lines."""
    counter = counter_from(args)
    pages = read_pages(args.file)
    chunks = chunk_pages(pages, args.max_tokens, args.overlap_tokens, counter)
    out = sys.stdout
    for c in chunks:
        if args.format == "text":
            pages_shown = (
                f"page {c.page_start}"
                if c.page_start == c.page_end
                else f"pages {c.page_start}-{c.page_end}"
            )
            flag = " OVERSIZED" if c.oversized else ""
            out.write(
                f"--- chunk {c.index}: {pages_shown}, chars {c.char_start}:{c.char_end}, "
                f"{c.token_count} tokens{flag} ---\n{c.text}\n"
            )
        else:  # argparse's choices leave "jsonl"
            out.write(json_line(dataclasses.asdict(c)))
    out.flush()
    return 0
